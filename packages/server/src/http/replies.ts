import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { ZodType } from 'zod';

/**
 * Replies are declared with the core contracts (DESIGN §5) so that /api/openapi.json documents every
 * route's reply. They are serialised with plain JSON.stringify: parsing each 10,000-row list with zod on
 * every request would cost more than building it. With `checkReplies` on (the test servers), every reply
 * is also checked against its declared schema, and a field the schema does not declare counts as a
 * mismatch, so the contracts cannot drift from what the server sends without a test failing.
 */

export class ReplyContractError extends Error {
  constructor(route: string, problems: string[]) {
    super(`Reply of ${route} breaks its contract: ${problems.slice(0, 5).join('; ')}`);
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys of `sent` that the parsed value dropped, i.e. fields the schema does not declare. */
export function undeclaredFields(sent: unknown, parsed: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    for (let i = 0; i < sent.length && out.length < 5; i++)
      undeclaredFields(sent[i], parsed[i], `${path}.${i}`, out);
  } else if (isPlainObject(sent) && isPlainObject(parsed)) {
    for (const [key, value] of Object.entries(sent)) {
      if (value === undefined) continue;
      if (!Object.hasOwn(parsed, key)) out.push(`${path}.${key} is not declared`);
      else undeclaredFields(value, parsed[key], `${path}.${key}`, out);
    }
  }
  return out;
}

/** Checks one reply against its schema; returns the problems, none when it keeps the contract. */
export function replyProblems(schema: ZodType, data: unknown): string[] {
  // What the client receives is the JSON text, so the check reads the value as JSON would give it.
  const sent = data === undefined ? undefined : JSON.parse(JSON.stringify(data));
  const result = schema.safeParse(sent);
  if (!result.success)
    return result.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  return undeclaredFields(sent, result.data);
}

export function replySerializer(checkReplies: boolean): FastifySerializerCompiler<ZodType> {
  return ({ schema, method, url }) =>
    (data) => {
      if (checkReplies) {
        const problems = replyProblems(schema, data);
        if (problems.length) throw new ReplyContractError(`${method} ${url}`, problems);
      }
      return JSON.stringify(data);
    };
}
