import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

/**
 * Compressed copies of kept reply bodies (http/etag.ts). `@fastify/compress` (app.ts) compresses every
 * reply on its own, synchronously for a body in memory: a browser reading a services list of 10,000 rows
 * (6 MB of JSON) paid a brotli pass of the whole body per request, blocking the event loop, and every
 * browser of the fleet paid it again for the same bytes after each change ("the SPA's reloads
 * after live events"). A kept body is compressed once per encoding, off the event loop (zlib's thread
 * pool), with the plugin's settings, and sent with its `Content-Encoding`, which the plugin passes over.
 */

/** The encodings kept, as the plugin names them; deflate (rare) is left to the plugin. */
const KEPT = ['br', 'gzip'] as const;
export type KeptEncoding = (typeof KEPT)[number];

/** The plugin's order of preference (app.ts) and its threshold: smaller replies go out as they are. */
const SERVER_ORDER = ['br', 'gzip', 'deflate'];
export const COMPRESS_THRESHOLD = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The plugin's brotli quality (its recommended default, 4) and zlib's defaults for gzip. */
const COMPRESS: Record<KeptEncoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzip(body),
};

/**
 * The kept encoding a request takes, negotiated as the plugin negotiates it (`*` and `x-gzip` count as
 * gzip); undefined when it takes none of them or asks for no compression (the plugin decides then).
 */
export function keptEncoding(req: FastifyRequest): KeptEncoding | undefined {
  if (req.headers['x-no-compression'] !== undefined) return undefined;
  const header = req.headers['accept-encoding'];
  if (!header) return undefined;
  const chosen = negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), SERVER_ORDER);
  return KEPT.find((e) => e === chosen);
}

/** Compressions under way, by key: requests for the same copy share one. */
const pending = new Map<string, Promise<Buffer>>();

/**
 * The `encoding` copy of `body`, kept under `key` in `cache` (a ReplyCache: bounded by bytes), made once
 * however many requests ask for it at the same time.
 */
export async function encodedBody(
  cache: { get(key: string): Buffer | undefined; set(key: string, body: Buffer): void },
  key: string,
  body: Buffer,
  encoding: KeptEncoding,
): Promise<Buffer> {
  const kept = cache.get(key);
  if (kept) return kept;
  let making = pending.get(key);
  if (!making) {
    making = COMPRESS[encoding](body).finally(() => pending.delete(key));
    pending.set(key, making);
    const encoded = await making;
    cache.set(key, encoded);
    return encoded;
  }
  return making;
}
