import { z } from 'zod';
import { Limits } from '../constants.js';
import { toThousandths } from '../decimal.js';

/**
 * Building blocks of the wire contracts (DESIGN §5): ids, flags, decimals and the limits every contract
 * shares (the error body is in refusal.ts). Each domain's contract lives beside this file; the server validates
 * requests and declares replies with them, the web derives its types and form checks from them.
 */

/** Largest counter value (mileage in km, engine hours) a request may carry. */
export const COUNTER_MAX = 1e9;
/** Largest decimal (money, quantities, volumes) a request may carry, before the 3 fraction digits. */
export const DECIMAL_MAX = 1e9;

/** Path id: a positive integer (spec §5 integer rule), read from text. */
export const pathId = z.coerce.number().int().positive().max(Limits.intSigned);
/** The body of an action named by its path alone (send now, retry): none, or an empty object. */
export const actionBody = z.object({}).strict().optional().describe('No fields: the path names the action');
/** An id inside a JSON body: a number, never text. */
export const id = z.number().int().positive().max(Limits.intSigned);
export const idParams = z.object({ id: pathId });
export const fleetParams = z.object({ fid: pathId });
export const fleetItemParams = z.object({ fid: pathId, id: pathId });

/** 0/1 flags of spec §3. */
export const flag = z.union([z.literal(0), z.literal(1)]);
/** Unix seconds. */
export const unixTime = z.number().int().min(0).max(Limits.intUnsigned);
/** A counter value in km or engine hours. */
export const counter = z.number().min(0).max(COUNTER_MAX);
/** Service objects: unit, driver, trailer (DESIGN §5). */
export const objectType = z.enum(['u', 'd', 't']);
export type ObjectType = z.infer<typeof objectType>;

/**
 * A number or decimal text with a dot and at most 3 decimals (spec §5 "Import: line items", §9), at most
 * DECIMAL_MAX; positive or non-negative. Each way to fail is its own issue kind with the one message: not
 * such a decimal (custom), below the least value (too_small, minimum 0) or above DECIMAL_MAX (too_big),
 * so that a form can word which (web lib/coreResolver.ts).
 */
export function decimal3(options: { positive?: boolean } = {}) {
  const least = options.positive ? 'a positive' : 'a non-negative';
  const message = `Must be ${least} number with at most 3 decimals`;
  return z.union([z.number(), z.string()]).superRefine((v, ctx) => {
    const t = toThousandths(v);
    if (t === undefined) ctx.addIssue({ code: 'custom', message });
    else if (options.positive ? t <= 0 : t < 0)
      ctx.addIssue({
        code: 'too_small',
        origin: 'number',
        minimum: 0,
        inclusive: !options.positive,
        input: v,
        message,
      });
    else if (t > DECIMAL_MAX * 1000)
      ctx.addIssue({
        code: 'too_big',
        origin: 'number',
        maximum: DECIMAL_MAX,
        inclusive: true,
        input: v,
        message,
      });
  });
}

/**
 * Deepest nesting of objects and arrays a JSON request body may have (a 5,000-deep body
 * overflowed the stack, 500). No contract nests half as deep; a deeper body answers 400 error 4.
 */
export const JSON_DEPTH_MAX = 32;

/** A reply with no content (204). */
export const noContent = z.null().describe('No content');
/** The success reply of a call with nothing else to say (spec §7: "delete: error equals 0"). */
export const okReply = z.object({ error: z.literal(0) });
/** A file or image sent as it is stored (not JSON). */
export const binaryReply = z.string().meta({ format: 'binary', description: 'File contents' });

/**
 * Where an update body built by `acceptingReadOnly` keeps the values sent for its fixed fields (a
 * symbol: never serialised, never a column of a write, unseen by `Object.keys`).
 */
export const FIXED_FIELDS: unique symbol = Symbol('fixed fields');
/** The fixed fields' values a body sent, for the server to compare with the stored record. */
export type FixedValues<F extends string> = { [FIXED_FIELDS]?: Partial<Record<F, unknown>> };

/**
 * A write body that also takes a record in the shape its GET returns (PRODUCT.md "Written-back
 * records", spec §7 "generic store operations: update"), so read → change one field → write works:
 * - `derived` keys (ids, times, counters, computed status values) are accepted and dropped;
 * - `fixed` keys are stored fields no update changes (owner, creator, device): accepted, and handed
 *   to the server under `FIXED_FIELDS`, which refuses a value that differs from the stored one (400
 *   naming the field; server http/fixed-fields.ts) instead of dropping it silently.
 * Any other key the schema does not know is still refused when the schema is strict.
 */
export function acceptingReadOnly<T extends z.ZodObject, F extends string = never>(
  schema: T,
  derived: readonly string[],
  fixed: readonly F[] = [],
) {
  const meta = (description: string) => z.unknown().optional().meta({ readOnly: true, description });
  const extra = {
    ...Object.fromEntries(derived.map((k) => [k, meta('Read-only: ignored on write')])),
    ...Object.fromEntries(
      fixed.map((k) => [k, meta('Cannot be changed: refused unless equal to the stored value')]),
    ),
  };
  return schema.extend(extra).transform((value) => {
    const out: Record<string | symbol, unknown> = { ...value };
    for (const k of derived) delete out[k];
    const sent: Record<string, unknown> = {};
    for (const k of fixed) {
      if (out[k] !== undefined) sent[k] = out[k];
      delete out[k];
    }
    if (Object.keys(sent).length) out[FIXED_FIELDS] = sent;
    return out as Omit<z.output<T>, F> & FixedValues<F>;
  });
}
