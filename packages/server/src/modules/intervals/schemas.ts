import { decimal3, id, Limits } from '@fleetkeep/core';
import { z } from 'zod';

/** Request shapes of the intervals API (spec §3 "Interval", DESIGN §5; PRODUCT.md "Intervals"). */

const flag = z.union([z.literal(0), z.literal(1)]);
const frequency = z.number().int().min(0).max(Limits.intSigned);
const notice = z.number().int().min(0).max(Limits.intSigned);
const counter = z.number().min(0).max(1e9);
const objectType = z.enum(['u', 'd', 't']);

export const thresholdFields = z.object({
  description: z.string().max(Limits.descriptionMax),
  cnme: flag,
  cnmd: frequency,
  cnmo: notice,
  cnehe: flag,
  cnehd: frequency,
  cneho: notice,
  de: flag,
  /** Time frequencies have at most three digits (PRODUCT.md "Intervals", spec §5). */
  dd: z.number().int().min(0).max(999, 'Time frequency has at most three digits'),
  du: z.enum(['d', 'w', 'm', 'y']),
  do: notice,
});

export const intervalLine = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  t: z.union([z.literal(1), z.literal(2)]),
  q: decimal3({ positive: true }),
  c: decimal3(),
});

/** One assignment entry of `u` (DESIGN §5); absent baselines default to the object's counters and today. */
export const assignmentInput = z.object({
  id,
  t: objectType,
  lcnm: counter.optional(),
  lceh: counter.optional(),
  ltm: z.number().int().min(0).max(Limits.intUnsigned).optional(),
  cnt: z.number().int().min(0).max(Limits.intSigned).optional(),
});
export type AssignmentInput = z.infer<typeof assignmentInput>;

const name = z.string().trim().min(1).max(Limits.stringMax);
const lines = z.array(intervalLine).max(100);
const assignments = z.array(assignmentInput).max(10000);

export const intervalCreate = thresholdFields
  .partial()
  .extend({ n: name, li: lines.optional(), u: assignments.optional() });
export const intervalPatch = thresholdFields.partial().extend({
  n: name.optional(),
  li: lines.optional(),
  u: assignments.optional(),
});
export type IntervalCreate = z.infer<typeof intervalCreate>;
export type IntervalPatch = z.infer<typeof intervalPatch>;

/**
 * A row of the intervals import (spec §5 "Import: intervals"): frequencies and last values integers,
 * the last service date as Unix seconds or YYYY-MM-DD.
 */
export const importAssignment = z.object({
  id,
  t: objectType.default('u'),
  lcnm: z.number().int().min(0).max(Limits.intSigned).optional(),
  lceh: z.number().int().min(0).max(Limits.intSigned).optional(),
  ltm: z.union([z.number().int().min(0).max(Limits.intUnsigned), z.string().max(32)]).optional(),
  cnt: z.number().int().min(0).max(Limits.intSigned).optional(),
});
export const importRow = thresholdFields
  .partial()
  .extend({ n: name, li: lines.optional(), u: z.array(importAssignment).max(10000).optional() });
export type ImportRow = z.infer<typeof importRow>;

export const basesBody = z.object({
  bases: z
    .array(
      z.object({
        ivid: id,
        lcnm: counter.optional(),
        lceh: counter.optional(),
        ltm: z.number().int().min(0).max(Limits.intUnsigned).optional(),
        cnt: z.number().int().min(0).max(Limits.intSigned).optional(),
      }),
    )
    .max(10000),
});
export type BaseInput = z.infer<typeof basesBody>['bases'][number];
