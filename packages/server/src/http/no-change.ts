import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify';
import { invalidInput } from './errors.js';

/** Reason of the 400 `{error: 4}` for an update that names no field of its contract. */
export const NO_FIELD_TO_CHANGE = 'No field to change';

type ZodDef = { type?: string; shape?: Record<string, unknown>; in?: unknown; innerType?: unknown };
const defOf = (schema: unknown): ZodDef | undefined =>
  (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;

/**
 * The keys of an object body contract (core zod schemas): the object's own, through the wrappers
 * `acceptingReadOnly` (a pipe into a transform) and `optional` add, so the read-only keys count too;
 * undefined for anything that is not an object.
 */
export function bodyKeys(schema: unknown): string[] | undefined {
  const def = defOf(schema);
  switch (def?.type) {
    case 'object':
      return Object.keys(def.shape ?? {});
    case 'pipe':
      return bodyKeys(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return bodyKeys(def.innerType);
    default:
      return undefined;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every update (`PUT`, `PATCH`) whose body contract is an object with fields refuses a body that names
 * none of them, writable or read-only, with 400 `{error: 4, reason: 'No field to change'}` and the record
 * unchanged. A body as read (GET → PUT round
 * trip) names its fields and goes on to validation as before; a contract without fields (a confirmation)
 * is left alone. Call before the routes are registered.
 */
export function installNoChangeCheck(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => m === 'PUT' || m === 'PATCH')) return;
    const keys = bodyKeys((route.schema as { body?: unknown } | undefined)?.body);
    if (!keys || keys.length === 0) return;
    const known = new Set(keys);
    const check: preValidationHookHandler = (request, _reply, done) => {
      const body = request.body;
      if (
        (request.method === 'PUT' || request.method === 'PATCH') &&
        isPlainObject(body) &&
        !Object.keys(body).some((k) => known.has(k))
      ) {
        done(invalidInput(undefined, NO_FIELD_TO_CHANGE));
        return;
      }
      done();
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [...(Array.isArray(existing) ? existing : [existing]), check] : [check];
  });
}
