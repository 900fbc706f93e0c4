import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseOutboundAllow } from '../outbound/policy.js';
import { startTestServer } from './harness.js';

/** A request the receiver got: its path, headers and body. */
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP webhook receiver on loopback for the channel tests: it keeps every request and answers
 * 200 `{"ok":true}` (what a bot API answers too).
 */
export async function startWebhookReceiver() {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The public URL the channel tests' servers put in their links. */
export const CHANNEL_PUBLIC_URL = 'https://fleet.example.com';

/**
 * A test server whose outbound requests may reach loopback, with a webhook receiver and the demo
 * manager signed in: what every channel notification test starts from.
 */
export async function startChannelServer() {
  const hook = await startWebhookReceiver();
  const t = await startTestServer({
    config: { publicUrl: CHANNEL_PUBLIC_URL, outboundAllow: parseOutboundAllow('external,loopback') },
  });
  const manager = await t.login('manager');
  return { hook, t, manager, api: `/api/fleets/${t.demo.fleetId}` };
}
