import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  api,
  REVALIDATE_MAX_CHARS,
  REVALIDATE_MAX_ENTRIES,
  revalidationSize,
  setSession,
} from './api.ts';
import { isConnected, setConnected } from './connection.ts';

/**
 * The API client's conditional reads against a real HTTP server that answers as the
 * tagged lists do: an `ETag` per URL and revision, 304 with no body when `If-None-Match` names it.
 */
interface Seen {
  url: string;
  ifNoneMatch: string | undefined;
  authorization: string | undefined;
}

let server: http.Server;
let base = '';
const seen: Seen[] = [];
/** The revision of every URL; a write bumps it. */
const revisions = new Map<string, number>();
let tagged = true;

const revOf = (url: string) => revisions.get(url) ?? 1;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.endsWith('/full')) {
      res.writeHead(507, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 11, reason: "The server's disk is full" }));
      return;
    }
    if (url.endsWith('/broken')) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 500, reason: 'Unexpected fault' }));
      return;
    }
    seen.push({ url, ifNoneMatch: req.headers['if-none-match'], authorization: req.headers.authorization });
    const rev = revOf(url);
    const tag = `"${url.length}-${rev}"`;
    if (tagged && req.headers['if-none-match'] === tag) {
      res.writeHead(304, { etag: tag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', ...(tagged ? { etag: tag } : {}) });
    // `/big…` bodies carry a padding of a third of the character budget (and a little more).
    const pad = url.includes('/big') ? 'x'.repeat(Math.ceil(REVALIDATE_MAX_CHARS / 3)) : undefined;
    res.end(JSON.stringify({ url, rev, pad }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  setSession(null);
  setSession('first');
  seen.length = 0;
  revisions.clear();
  tagged = true;
});

const last = () => seen[seen.length - 1] as Seen;

describe('conditional reads', () => {
  it('sends the kept tag and turns a 304 into the body read before, the same object', async () => {
    const first = await api<{ rev: number }>(`${base}/api/list`);
    expect(last().ifNoneMatch).toBeUndefined();
    const again = await api<{ rev: number }>(`${base}/api/list`);
    expect(last().ifNoneMatch).toBe('"9-1"');
    expect(again).toBe(first);
    expect(again).toEqual({ url: '/api/list', rev: 1 });
  });

  it('takes the new body and tag after a change', async () => {
    await api(`${base}/api/list`);
    revisions.set('/api/list', 2);
    expect(await api(`${base}/api/list`)).toEqual({ url: '/api/list', rev: 2 });
    await api(`${base}/api/list`);
    expect(last().ifNoneMatch).toBe('"9-2"');
  });

  it('keeps tags per URL, and none for writes or untagged replies', async () => {
    await api(`${base}/api/a`);
    await api(`${base}/api/b`);
    await api(`${base}/api/a`, { method: 'POST', body: {} });
    expect(last().ifNoneMatch).toBeUndefined();
    await api(`${base}/api/b`);
    expect(last().ifNoneMatch).toBe('"6-1"');
    tagged = false;
    await api(`${base}/api/c`);
    await api(`${base}/api/c`);
    expect(last().ifNoneMatch).toBeUndefined();
  });

  it('forgets a URL whose reply stops carrying a tag', async () => {
    await api(`${base}/api/list`);
    tagged = false;
    revisions.set('/api/list', 2);
    await api(`${base}/api/list`);
    tagged = true;
    await api(`${base}/api/list`);
    expect(last().ifNoneMatch).toBeUndefined();
  });

  it('empties on logout and on another session, so one user never reads another’s body', async () => {
    await api(`${base}/api/list`);
    setSession('second');
    await api(`${base}/api/list`);
    expect(last()).toMatchObject({ ifNoneMatch: undefined, authorization: 'SSID second' });
    setSession(null);
    expect(revalidationSize()).toBe(0);
    setSession('second');
    await api(`${base}/api/list`);
    expect(last().ifNoneMatch).toBeUndefined();
  });

  it('keeps at most its bound of URLs, the least recently used leaving first', async () => {
    for (let i = 0; i <= REVALIDATE_MAX_ENTRIES; i++) await api(`${base}/api/n${i}`);
    expect(revalidationSize()).toBe(REVALIDATE_MAX_ENTRIES);
    await api(`${base}/api/n0`);
    expect(last().ifNoneMatch).toBeUndefined();
    await api(`${base}/api/n${REVALIDATE_MAX_ENTRIES}`);
    expect(last().ifNoneMatch).toBeDefined();
  });

  it('keeps at most its budget of characters, the least recently used leaving first', async () => {
    await api(`${base}/api/big0`);
    await api(`${base}/api/big1`);
    await api(`${base}/api/big0`); // big0 is now the most recently used
    expect(last().ifNoneMatch).toBeDefined();
    await api(`${base}/api/big2`);
    expect(revalidationSize()).toBe(2);
    await api(`${base}/api/big1`);
    expect(last().ifNoneMatch).toBeUndefined();
    await api(`${base}/api/big2`);
    expect(last().ifNoneMatch).toBeDefined();
  });
});

describe('connection state', () => {
  it('a full disk (507) is a reason to show, not a lost connection; a fault (500) is', async () => {
    setConnected(true);
    const full = await api(`${base}/api/full`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(full).toBeInstanceOf(ApiError);
    expect((full as ApiError).reason).toBe("The server's disk is full");
    expect(isConnected()).toBe(true);
    await api(`${base}/api/broken`).catch(() => undefined);
    expect(isConnected()).toBe(false);
    setConnected(true);
  });
});
