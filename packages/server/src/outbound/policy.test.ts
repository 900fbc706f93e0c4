import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import {
  addressAllowed,
  classifyAddress,
  nameAllowed,
  OUTBOUND_ALLOW_DEFAULT,
  parseOutboundAllow,
  urlAllowed,
} from './policy.js';
import { guardedLookup, OutboundRefused, postOutbound } from './request.js';

const external = parseOutboundAllow(undefined);

describe('address classes (FLEETKEEP_OUTBOUND_ALLOW)', () => {
  it.each([
    ['8.8.8.8', 'external'],
    ['2606:4700:4700::1111', 'external'],
    ['64:ff9b::808:808', 'external'], // NAT64 of a public address
    ['::ffff:8.8.8.8', 'external'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated
    ['::7f00:1', 'loopback'], // IPv4-compatible
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'], // CGNAT
    ['::ffff:10.0.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'other'], // link-local, cloud metadata
    ['::ffff:169.254.169.254', 'other'],
    ['fd00:ec2::254', 'other'], // AWS metadata, inside the ULA range
    ['fe80::1', 'other'],
    ['0.0.0.0', 'other'],
    ['::', 'other'],
    ['224.0.0.1', 'other'],
    ['ff02::1', 'other'],
    ['255.255.255.255', 'other'],
    ['64:ff9b:1::a00:1', 'other'], // local-use NAT64
    ['2002:7f00:1::', 'other'], // 6to4
    ['192.0.2.1', 'other'], // documentation
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });
});

describe('URL check under the default `external`', () => {
  it('is the default', () => {
    expect(OUTBOUND_ALLOW_DEFAULT).toBe('external');
    expect(loadConfig({}).outboundAllow.text).toBe('external');
    expect(loadConfig({ FLEETKEEP_OUTBOUND_ALLOW: '' }).outboundAllow.text).toBe('external');
  });

  // Every spelling WHATWG URL parsing turns into 127.0.0.1 (or an inside IPv6 address).
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://127.0.0.1./',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'https://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
    'http://10.0.0.1/',
    'http://100.64.1.1/',
    'http://192.168.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'not a url',
  ])('refuses %s', (url) => {
    expect(urlAllowed(external, url)).toBe(false);
  });

  it.each([
    'https://api.telegram.org',
    'https://hooks.example.com/in',
    'http://8.8.8.8/',
    'http://[2606:4700::1]/',
    // A name passes the URL check: its addresses are checked when the socket connects.
    'http://localhost:8080/',
  ])('lets %s through', (url) => {
    expect(urlAllowed(external, url)).toBe(true);
  });
});

describe('allow-list forms', () => {
  it('`loopback`, `private` and combinations', () => {
    const p = parseOutboundAllow('external,loopback');
    expect(urlAllowed(p, 'http://127.1/')).toBe(true);
    expect(urlAllowed(p, 'http://[::1]/')).toBe(true);
    expect(urlAllowed(p, 'http://10.0.0.1/')).toBe(false);
    expect(urlAllowed(p, 'http://8.8.8.8/')).toBe(true);
    const priv = parseOutboundAllow('private');
    expect(urlAllowed(priv, 'http://10.0.0.1/')).toBe(true);
    expect(urlAllowed(priv, 'http://[fd12::1]/')).toBe(true);
    expect(urlAllowed(priv, 'http://[fd00:ec2::254]/')).toBe(false);
    expect(urlAllowed(priv, 'http://169.254.169.254/')).toBe(false);
    expect(urlAllowed(priv, 'http://8.8.8.8/')).toBe(false);
    expect(urlAllowed(priv, 'http://127.0.0.1/')).toBe(false);
  });

  it('`*` allows every address', () => {
    const p = parseOutboundAllow('*');
    for (const a of ['127.0.0.1', '169.254.169.254', '::', 'fd00:ec2::254'])
      expect(addressAllowed(p, a)).toBe(true);
  });

  it('CIDRs and single addresses, IPv4 and IPv6, also through an IPv4-mapped address', () => {
    const p = parseOutboundAllow(' external , 10.1.0.0/16, fd12::/16, 192.168.5.5, [fe80::7] ');
    expect(addressAllowed(p, '10.1.200.3')).toBe(true);
    expect(addressAllowed(p, '::ffff:10.1.200.3')).toBe(true);
    expect(addressAllowed(p, '10.2.0.1')).toBe(false);
    expect(addressAllowed(p, 'fd12:9::1')).toBe(true);
    expect(addressAllowed(p, 'fd13::1')).toBe(false);
    expect(addressAllowed(p, '192.168.5.5')).toBe(true);
    expect(addressAllowed(p, '192.168.5.6')).toBe(false);
    expect(addressAllowed(p, 'fe80::7')).toBe(true);
    expect(addressAllowed(p, '127.0.0.1')).toBe(false);
  });

  it('host names: exact (any case, trailing dot) and `*.` suffixes, whatever they resolve to', () => {
    const p = parseOutboundAllow('external,hooks.internal,*.corp.example');
    expect(nameAllowed(p, 'hooks.internal')).toBe(true);
    expect(nameAllowed(p, 'HOOKS.Internal.')).toBe(true);
    expect(nameAllowed(p, 'a.b.corp.example')).toBe(true);
    expect(nameAllowed(p, 'corp.example')).toBe(false);
    expect(nameAllowed(p, 'evil-hooks.internal')).toBe(false);
    expect(urlAllowed(p, 'http://hooks.internal:8080/x')).toBe(true);
  });

  it.each([
    'external,',
    'extrenal',
    'external;loopback',
    '10.0.0.0/33',
    '300.1.1.1',
    'http://hooks.internal',
    'hooks.internal/x',
    '-bad-.example',
  ])('a bad value stops the start: %j', (value) => {
    expect(() => loadConfig({ FLEETKEEP_OUTBOUND_ALLOW: value })).toThrow(/FLEETKEEP_OUTBOUND_ALLOW/);
  });
});

describe('the connect-time check', () => {
  const lookup = (policy: ReturnType<typeof parseOutboundAllow>, host: string) =>
    new Promise<{ err: Error | null; addresses: unknown }>((resolve) =>
      guardedLookup(policy)(host, { all: true }, (err, addresses) => resolve({ err, addresses })),
    );

  it('refuses a name resolving to loopback unless loopback or the name is allowed', async () => {
    expect((await lookup(external, 'localhost')).err).toBeInstanceOf(OutboundRefused);
    const loop = await lookup(parseOutboundAllow('loopback'), 'localhost');
    expect(loop.err).toBeNull();
    expect((loop.addresses as { address: string }[]).length).toBeGreaterThan(0);
    expect((await lookup(parseOutboundAllow('external,localhost'), 'localhost')).err).toBeNull();
  });

  it('sends through a real receiver only when allowed, and never follows the name past the policy', async () => {
    const got: string[] = [];
    const server = http.createServer((req, res) => {
      got.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.end('fine'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      await expect(
        postOutbound(external, `http://localhost:${port}/a`, '{}', {}, 5000),
      ).rejects.toBeInstanceOf(OutboundRefused);
      await expect(
        postOutbound(external, `http://2130706433:${port}/b`, '{}', {}, 5000),
      ).rejects.toBeInstanceOf(OutboundRefused);
      expect(got).toEqual([]);
      const answer = await postOutbound(
        parseOutboundAllow('loopback'),
        `http://localhost:${port}/c`,
        '{}',
        {},
        5000,
      );
      expect(answer).toEqual({ status: 200, text: 'fine', location: null });
      expect(got).toEqual(['/c']);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
