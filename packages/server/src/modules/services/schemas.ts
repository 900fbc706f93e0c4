import { decimal3, id, Limits } from '@fleetkeep/core';
import { z } from 'zod';

/** Request bodies of the services API (spec §3 "Service", §5, §7 "Services"; PRODUCT.md "Services"). */

/** Unix seconds or YYYY-MM-DD (spec §5 "Requests use YYYY-MM-DD"). */
export const dateIn = z.union([
  z.number().int().min(0).max(Limits.intUnsigned),
  z.string().regex(/^\d{4}-\d{1,2}-\d{1,2}$/, 'Expected YYYY-MM-DD'),
]);
const counter = z.number().min(0).max(1e9);
const name = z.string().trim().min(1).max(Limits.stringMax);
const description = z.string().max(Limits.descriptionMax);

/** A line item: name, type 1 labour or 2 part, quantity > 0, unit cost ≥ 0 (spec §3 "Line item"). */
export const lineIn = z.object({
  n: name,
  t: z.union([z.literal(1), z.literal(2)]),
  q: decimal3({ positive: true }),
  c: decimal3(),
});
export type LineIn = z.infer<typeof lineIn>;

const customValues = z.array(z.object({ id, v: z.string().max(Limits.descriptionMax) })).max(200);

/** Status a service may be created with: Due, In progress or Closed (spec §4). */
const createStatus = z.union([z.literal(1), z.literal(2), z.literal(8)]);

const common = {
  n: name,
  description: description.optional(),
  ivid: id.nullable().optional(),
  limit_date: dateIn.nullable().optional(),
  start_date: dateIn.nullable().optional(),
  end_date: dateIn.nullable().optional(),
  mileage: counter.nullable().optional(),
  engine_hours: counter.nullable().optional(),
  limit_mileage: counter.nullable().optional(),
  limit_engine_hours: counter.nullable().optional(),
  notify_days: z.number().int().min(0).max(365).nullable().optional(),
  li: z.array(lineIn).max(100).optional(),
  manual_cost: decimal3().nullable().optional(),
  cf: customValues.optional(),
};

export const createBody = z.object({
  t: z.enum(['u', 'd', 't']),
  uid: id,
  f: createStatus,
  ...common,
});
export type CreateInput = z.infer<typeof createBody>;

/**
 * A row of the service import (spec §5 "Import: services"): mileage and engine hours are integers; the
 * total cost may come as `total_cost` (an integer or a decimal with a dot).
 */
export const importRow = createBody.extend({
  mileage: z.number().int().min(0).max(Limits.intSigned).nullable().optional(),
  engine_hours: z.number().int().min(0).max(Limits.intSigned).nullable().optional(),
  total_cost: decimal3().nullable().optional(),
});
export type ImportRow = z.infer<typeof importRow>;

/** Everything but object type, object and interval (sent back unchanged they are accepted). */
export const updateBody = z.object({
  t: z.enum(['u', 'd', 't']).optional(),
  uid: id.optional(),
  f: z.union([createStatus, z.literal(16)]).optional(),
  ...common,
  n: name.optional(),
});
export type UpdateInput = z.infer<typeof updateBody>;

export const batchUpdateRow = updateBody.extend({ id });

/** Corrections of an archived service (PRODUCT.md "Services"); the status stays frozen. */
export const archivePatch = z.strictObject({
  description: description.optional(),
  end_date: dateIn.optional(),
  mileage: counter.nullable().optional(),
  engine_hours: counter.nullable().optional(),
  li: z.array(lineIn).max(100).optional(),
  manual_cost: decimal3().nullable().optional(),
  cf: customValues.optional(),
});
export type ArchivePatch = z.infer<typeof archivePatch>;

/** The most rows one batch call takes. */
export const BATCH_MAX = 5000;
