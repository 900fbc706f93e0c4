import { JSON_DEPTH_MAX } from '@fleetkeep/core';
import type { FastifyInstance } from 'fastify';
import { invalidInput } from './errors.js';
import { utf8Text } from './utf8.js';

/** Reason of the 400 `{error: 4}` for a body nested deeper than core `JSON_DEPTH_MAX`. */
export const TOO_DEEP = `JSON nested deeper than ${JSON_DEPTH_MAX} levels`;

/**
 * How deep the objects and arrays of a JSON text nest, counted without recursion in one pass over the
 * text (strings skipped), stopping as soon as it passes `limit`. Malformed text is left to the parser.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Reason of the 400 for text with U+0000, which PostgreSQL cannot store (SQLite can: refused on both). */
export const NUL_IN_TEXT = 'Text must not contain the character U+0000';

/** A `\u0000` escape in JSON text (not an escaped backslash followed by "u0000"). */
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/i;

/**
 * Every JSON body goes through Fastify's own parser (prototype poisoning refused, empty and malformed
 * bodies answered as before, the route's body limit applied while reading) after a check of its bytes
 * (UTF-8 only, http/utf8.ts) and of its nesting: deeper than `JSON_DEPTH_MAX` answers 400 `{error: 4,
 * reason}` before anything walks it (a 5,000-deep object overflowed the stack, 500).
 * Call before the routes are registered.
 */
export function installJsonDepthLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let raw: string;
    try {
      raw = utf8Text(body);
    } catch (err) {
      done(err as Error, undefined);
      return;
    }
    if (jsonDepthExceeds(raw, JSON_DEPTH_MAX)) {
      done(invalidInput(undefined, TOO_DEEP), undefined);
      return;
    }
    if (NUL_ESCAPE.test(raw)) {
      done(invalidInput(undefined, NUL_IN_TEXT), undefined);
      return;
    }
    parse(request, raw, done);
  });
}
