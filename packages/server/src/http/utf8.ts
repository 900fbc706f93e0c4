import { isUtf8 } from 'node:buffer';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidInput } from './errors.js';

/** Reason of the 400 `{error: 4}` for a text body whose bytes are not UTF-8. */
export const NOT_UTF8 = 'Body is not valid UTF-8';

/**
 * A text body's bytes as a string. Bytes that are not UTF-8 answer 400 `{error: 4}`: decoded leniently
 * they would become U+FFFD and be stored as such, a silent change of what the client sent. Every text
 * body (JSON, forms, plain text, the OsmAnd port's bodies) is read as bytes and decoded here.
 */
export function utf8Text(body: Buffer | string): string {
  if (typeof body === 'string') return body;
  if (!isUtf8(body)) throw invalidInput(undefined, NOT_UTF8);
  return body.toString('utf8');
}

/**
 * A content-type parser (`parseAs: 'buffer'`) of a text body: `read` of its text, or the 400 of
 * `utf8Text` (or of `read`).
 */
export function textParser(read: (text: string) => unknown = (text) => text) {
  return (
    _request: FastifyRequest,
    body: Buffer | string,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    let value: unknown;
    try {
      value = read(utf8Text(body));
    } catch (err) {
      done(err as Error, undefined);
      return;
    }
    done(null, value);
  };
}

/**
 * Plain text and forms (`application/x-www-form-urlencoded`: repeated keys become arrays, as
 * `@fastify/formbody` read them) decoded by `utf8Text`; JSON is in http/json-depth.ts. Call before the
 * routes are registered.
 */
export function installTextParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, textParser());
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    textParser(parseQuery),
  );
}
