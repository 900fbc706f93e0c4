import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { addressAllowed, bareHost, nameAllowed, type OutboundPolicy, urlAllowed } from './policy.js';

/**
 * The one path of requests to URLs that fleet admins set (webhooks, bot APIs): the policy of
 * `policy.ts` checked on the URL and again on every address the name resolves to, when the socket
 * connects (a custom `lookup`), so that a name that passed the save check and then resolves to
 * 127.0.0.1 (DNS rebinding) is refused all the same. Redirects are not followed.
 */

/** The policy refused the destination (never the socket's own words: they would map ports). */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
  readonly code = 'EOUTBOUNDREFUSED';
}

/** Characters of an answer read (a failure text keeps far fewer). */
const ANSWER_MAX = 64 * 1024;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** `dns.lookup` that hands the socket only the addresses the policy allows. */
export function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const ok = nameAllowed(policy, hostname)
        ? addresses
        : addresses.filter((a) => addressAllowed(policy, a.address));
      if (ok.length === 0) return callback(new OutboundRefused(`${hostname} is refused`), []);
      if (options.all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}

export interface OutboundAnswer {
  status: number;
  text: string;
  location: string | null;
}

/** POSTs `body` to `url` under the policy; 10 s (`timeoutMs`) for the whole exchange. */
export function postOutbound(
  policy: OutboundPolicy,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<OutboundAnswer> {
  // An address literal never reaches `lookup` (net connects to it directly): checked here.
  if (!urlAllowed(policy, url)) return Promise.reject(new OutboundRefused(`${url} is refused`));
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        // A fresh connection each time: no pooled socket outlives the policy it was checked under.
        agent: false,
        lookup: net.isIP(bareHost(target.hostname)) ? undefined : guardedLookup(policy),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < ANSWER_MAX) text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text, location: res.headers.location ?? null }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
