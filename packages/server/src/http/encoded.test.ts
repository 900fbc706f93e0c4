import zlib from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { encodedBody, keptEncoding } from './encoded.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('compressed copies of kept bodies (http/encoded.ts)', () => {
  it('negotiates as the compression plugin: brotli first, then gzip; deflate and none left to it', () => {
    expect(keptEncoding(request({ 'accept-encoding': 'gzip, deflate, br' }))).toBe('br');
    expect(keptEncoding(request({ 'accept-encoding': 'br;q=0, gzip' }))).toBe('gzip');
    expect(keptEncoding(request({ 'accept-encoding': 'gzip;q=0.5, br;q=0.4' }))).toBe('gzip');
    expect(keptEncoding(request({ 'accept-encoding': 'X-GZIP' }))).toBe('gzip');
    expect(keptEncoding(request({ 'accept-encoding': '*' }))).toBe('gzip');
    expect(keptEncoding(request({ 'accept-encoding': 'deflate' }))).toBeUndefined();
    expect(keptEncoding(request({ 'accept-encoding': 'identity' }))).toBeUndefined();
    expect(keptEncoding(request({}))).toBeUndefined();
    expect(keptEncoding(request({ 'accept-encoding': 'br', 'x-no-compression': '1' }))).toBeUndefined();
  });

  it('compresses a body once however many ask at the same time, then serves the kept copy', async () => {
    const body = Buffer.from(JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => `row ${i}`) }));
    const kept = new Map<string, Buffer>();
    let sets = 0;
    const cache = {
      get: (key: string) => kept.get(key),
      set: (key: string, value: Buffer) => {
        sets++;
        kept.set(key, value);
      },
    };
    const copies = await Promise.all(Array.from({ length: 5 }, () => encodedBody(cache, 'k|br', body, 'br')));
    expect(sets).toBe(1);
    for (const copy of copies) expect(copy).toBe(copies[0]);
    expect(zlib.brotliDecompressSync(copies[0]!).equals(body)).toBe(true);
    expect(await encodedBody(cache, 'k|br', body, 'br')).toBe(copies[0]);
    expect(sets).toBe(1);
    const gz = await encodedBody(cache, 'k|gzip', body, 'gzip');
    expect(zlib.gunzipSync(gz).equals(body)).toBe(true);
    expect(sets).toBe(2);
  });
});
