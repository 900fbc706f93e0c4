import { z } from 'zod';
import { COUNTER_MAX, counter, pathId, unixTime } from './common.js';

/**
 * A unit's meter history (PRODUCT.md "Service objects and counters"): the
 * readings its devices sent and what the counter rules made of them, and the hand corrections, with
 * who and when. Mileage in km and engine hours in hours, as the unit's own counters (`cnm`, `cneh`);
 * the web converts to the fleet's distance unit.
 *
 * What is kept (server `meter_readings`, migration 016) — accepted device readings are sampled, not
 * stored one by one:
 * - every reading the rules refuse, with its reason (at most `METER_REFUSED_PER_UNIT_MAX` per unit,
 *   the oldest dropped first);
 * - every baseline: the first odometer or engine-hours reading of a unit's device (its first ever, and
 *   the first after the unit's device identifier changed) sets the counter instead of being measured
 *   against it, and the unit's interval baselines move by the same step (`shift_cnm`, `shift_cneh`);
 * - the first accepted reading of each fleet day (the day's counters at its first and last reading are
 *   in the statistics' daily history as well);
 * - refused readings a manager accepted (`st: 'accepted'`, with `by` and `at`).
 * Rows older than `METER_RETENTION_DAYS` are dropped. Hand corrections (`counter_corrections`, also
 * made by PUT /api/fleets/{fid}/units/{id}) are kept for good.
 */

/** Why the counter rules refuse a reading (server telematics/rules.ts); the web translates them. */
export const MeterReason = {
  future: 'Reading is in the future',
  outOfOrder: 'Reading is out of order',
  odometerBackwards: 'Odometer went backwards',
  hoursBackwards: 'Engine hours went backwards',
  mileageJump: 'Implausible mileage jump',
  hoursJump: 'Implausible engine hours jump',
  /** Automatic voids (PRODUCT.md "Meter integrity"): a recorded reading the rules keep but do not count. */
  outOfSequence: 'Reading is out of sequence',
  dailyDistance: 'Daily distance over the fleet limit',
  hoursFasterThanTime: 'Engine hours grew faster than time',
} as const;

/** A fleet's daily distance limit by default, km (Fleetio's 3,000 miles); fleet setting `meterDailyDistanceMax`. */
export const METER_DAILY_DISTANCE_DEFAULT_KM = 4800;
/** The range of the fleet setting, km a day. */
export const METER_DAILY_DISTANCE_MIN_KM = 1;
export const METER_DAILY_DISTANCE_MAX_KM = 100_000;
/** Longest void reason. */
export const METER_VOID_REASON_MAX = 500;

/** Refused readings kept per unit at most; older ones go first. */
export const METER_REFUSED_PER_UNIT_MAX = 1000;
/** Readings older than this are dropped (hand corrections are kept). */
export const METER_RETENTION_DAYS = 400;
/** Entries in one history reply at most, newest first. */
export const METER_LIST_MAX = 2000;
/** Default period of the history when `from` is not given. */
export const METER_DEFAULT_DAYS = 90;

/**
 * Where a reading came from (PRODUCT.md "Meter integrity"): each entry point names its own. `device` is
 * legacy: readings stored before the sources were told apart (an OsmAnd, Teltonika or Traccar tracker);
 * `hand` is a correction.
 */
export const meterSource = z
  .enum(['osmand', 'teltonika', 'traccar', 'manual', 'fuel', 'import', 'device', 'hand'])
  .describe(
    'osmand, teltonika, traccar: the tracker protocol; manual: recorded on the unit page; fuel: a fuel filling; import: the gateway batch; device: legacy (a tracker, before the sources were told apart); hand: a correction',
  );
export type MeterSource = z.infer<typeof meterSource>;

export const meterState = z
  .enum(['accepted', 'baseline', 'refused', 'replaced'])
  .describe(
    'accepted; baseline (a first reading that set the counter); refused by the counter rules; replaced (the meter was replaced: the next reading starts a new scale)',
  );
export type MeterState = z.infer<typeof meterState>;

export const meterPerson = z.object({ id: z.number().int(), nm: z.string() }).describe('User');

export const meterEntryWire = z.object({
  id: z.number().int().describe('Reading id (kind reading) or correction id (kind correction)'),
  kind: z.enum(['reading', 'correction']),
  tm: z.number().int().describe('Unix milliseconds: the time the reading carries, or of the correction'),
  src: meterSource,
  cnm: z.number().nullable().describe('Mileage, km (null when the entry does not set it)'),
  cneh: z.number().nullable().describe('Engine hours (null when the entry does not set them)'),
  old_cnm: z.number().nullable().describe('Corrections and baselines: the mileage before, km'),
  old_cneh: z.number().nullable().describe('Corrections and baselines: the engine hours before'),
  shift_cnm: z
    .number()
    .nullable()
    .describe("Baselines: the unit's interval baselines (last service mileage) moved by this, km; else null"),
  shift_cneh: z
    .number()
    .nullable()
    .describe(
      "Baselines: the unit's interval baselines (last service engine hours) moved by this; else null",
    ),
  st: meterState,
  reason: z.string().nullable().describe('Why the rules refused the reading (kept once accepted)'),
  by: meterPerson.nullable().describe('Who corrected, or accepted the refused reading'),
  at: unixTime.nullable().describe('When it was corrected or accepted, Unix seconds'),
  voided: z
    .object({
      at: unixTime.describe('When it was voided, Unix seconds'),
      by: meterPerson.nullable().describe('Who voided it (null for an automatic void)'),
      reason: z.string().describe('Why'),
      auto: z.boolean().describe('true when the counter rules voided it'),
    })
    .nullable()
    .describe('A voided reading is kept but counts for nothing; null when valid'),
});
export type MeterEntryWire = z.infer<typeof meterEntryWire>;

export const meterListReply = z.object({
  entries: z.array(meterEntryWire).describe('Newest first'),
  more: z.boolean().describe(`true when the period holds more than ${METER_LIST_MAX} entries`),
});
export type MeterListReply = z.infer<typeof meterListReply>;

/** `GET /api/fleets/{fid}/units/{id}/meter?from&to`: Unix seconds, both optional. */
export const meterListQuery = z.object({
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});
export type MeterListQuery = z.infer<typeof meterListQuery>;

export const meterReadingParams = z.object({ fid: pathId, id: pathId, readingId: pathId });
/** `POST .../meter/{readingId}/accept`: no fields. */
export const meterAcceptBody = z.strictObject({}).optional();

/** `POST /api/fleets/{fid}/units/{id}/meter`: a hand correction of one or both counters. */
export const meterCorrectionBody = z
  .strictObject({
    cnm: counter.optional().describe(`Mileage, km (0..${COUNTER_MAX})`),
    cneh: counter.optional().describe('Engine hours'),
  })
  .refine((b) => b.cnm !== undefined || b.cneh !== undefined, {
    message: 'cnm or cneh is required',
    path: ['cnm'],
  });
export type MeterCorrectionBody = z.infer<typeof meterCorrectionBody>;

/** `POST .../meter/{readingId}/void`: why (PRODUCT.md "Meter integrity"). */
export const meterVoidBody = z.strictObject({
  reason: z.string().trim().min(1).max(METER_VOID_REASON_MAX).describe('Why the reading is voided'),
});
export type MeterVoidBody = z.infer<typeof meterVoidBody>;

/** `POST .../meter/{readingId}/restore`: no fields. */
export const meterRestoreBody = z.strictObject({}).optional();

/**
 * `POST /api/fleets/{fid}/units/{id}/meter/readings`: a reading recorded by hand (source manual), e.g.
 * of an untracked vehicle; it goes through the same counter rules as a device's.
 */
export const meterReadingBody = z
  .strictObject({
    tm: unixTime.optional().describe('When it was read, Unix seconds (default now)'),
    cnm: counter.optional().describe(`Odometer, km (0..${COUNTER_MAX})`),
    cneh: counter.optional().describe('Engine hours'),
  })
  .refine((b) => b.cnm !== undefined || b.cneh !== undefined, {
    message: 'cnm or cneh is required',
    path: ['cnm'],
  });
export type MeterReadingBody = z.infer<typeof meterReadingBody>;

/** `POST /api/fleets/{fid}/units/{id}/meter/replaced`: the meter was replaced; the next reading starts a new scale. */
export const meterReplacedBody = z.strictObject({}).optional();

/** Reply of an accept or a correction: the unit's counters after it, and the entry as now listed. */
export const meterChangeReply = z.object({
  cnm: z.number().describe('The unit’s mileage now, km'),
  cneh: z.number().describe('The unit’s engine hours now'),
  applied: z.boolean().describe('Accept: true when the reading was the newest and became the counter'),
  entries: z.array(meterEntryWire).describe('The entries written'),
});
export type MeterChangeReply = z.infer<typeof meterChangeReply>;
