import { z } from 'zod';

/**
 * The `details` of an error reply (DESIGN §5 `{error, reason, details?}`; spec §8 "Server failures carry
 * an error field with details"). Neither pins the shape of the details, so this is the one contract:
 * the server builds its errors only from these types and the web reads them with one reader.
 */

/**
 * A 400 `{error: 4}` entry: the field path (`body.n`, `body.services.3.c`, `querystring.from`), what is
 * wrong with it, and for batch and import rows the row's index. Validation lists every bad field.
 */
export const fieldIssue = z.strictObject({
  field: z.string(),
  message: z.string(),
  row: z.number().int().optional(),
});
export type FieldIssue = z.infer<typeof fieldIssue>;

/**
 * A 409 `{error: 10}` entry: a record the request may not change as asked (a batch row, a duplicate,
 * a record in use). It names the record as far as it is known: its `id`, its `kind` (the object kind of
 * a binding: units, drivers, trailers), the batch or file `row`, the request `field`; and why (`reason`).
 * A stored value that stands in the way is `value`; `values` counts the stored values concerned.
 */
export const recordRefusal = z.strictObject({
  id: z.number().int().optional(),
  kind: z.string().optional(),
  row: z.number().int().optional(),
  field: z.string().optional(),
  reason: z.string(),
  value: z.string().optional(),
  values: z.number().int().min(0).optional(),
});
export type RecordRefusal = z.infer<typeof recordRefusal>;

/** A 429 `{error: 9}`: seconds until a new attempt is taken, also sent as `Retry-After`. */
export const retryDetails = z.strictObject({ retry_after: z.number().positive() });
/** A 500 `{error: 6}`: the request id the fault is logged with (DESIGN §5: never a stack trace). */
export const faultDetails = z.strictObject({ request_id: z.string().min(1) });

/** The one type of an error's `details`. */
export const refusalDetails = z.union([
  z.array(fieldIssue),
  z.array(recordRefusal),
  retryDetails,
  faultDetails,
]);
export type RefusalDetails = z.infer<typeof refusalDetails>;

/**
 * The details each error code carries (DESIGN §5 codes): field issues with 4, record refusals with 10,
 * the wait with 9, the request id with 6, none with the others.
 */
export function detailsOfCode(code: number) {
  if (code === 4) return z.array(fieldIssue).optional();
  if (code === 10) return z.array(recordRefusal).optional();
  if (code === 9) return retryDetails.optional();
  if (code === 6) return faultDetails.optional();
  return z.undefined();
}

/** The error body of DESIGN §5, also the error reply of the API description. */
export const errorBody = z.strictObject({
  error: z.number().int(),
  reason: z.string(),
  details: refusalDetails.optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
