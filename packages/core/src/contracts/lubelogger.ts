import { z } from 'zod';
import { Limits } from '../constants.js';
import { id } from './common.js';

const name = z.string().trim().min(1).max(Limits.stringMax);

/**
 * The migration from LubeLogger's CSV exports (PRODUCT.md "Administration"): the
 * preview and the import with a vehicle → unit mapping (server modules/fleet-transfer).
 */

/** Record kinds of LubeLogger's CSV exports. */
export const LUBELOGGER_KINDS = ['service', 'repair', 'upgrade', 'fuel', 'odometer', 'reminder'] as const;
export type LubeLoggerKind = (typeof LUBELOGGER_KINDS)[number];
export const LUBELOGGER_FILES_MAX = 60;
/** Characters of one CSV file. */
export const LUBELOGGER_FILE_MAX = 5 * 1024 * 1024;
export const LUBELOGGER_ROWS_MAX = 50_000;
/** Rows of each kind shown in the preview. */
export const LUBELOGGER_PREVIEW_ROWS = 50;

export const lubeLoggerFile = z.object({
  name: z.string().trim().min(1).max(255),
  kind: z.enum(LUBELOGGER_KINDS),
  /** The vehicle of a file without a `VehicleId` column (older exports are per vehicle). */
  vehicle: z.string().trim().min(1).max(Limits.stringMax),
  content: z.string().max(LUBELOGGER_FILE_MAX),
});
export type LubeLoggerFile = z.infer<typeof lubeLoggerFile>;

/** How dates in the files are written: month first (LubeLogger's en-US default), day first, or ISO. */
export const LUBELOGGER_DATE_FORMATS = ['MDY', 'DMY', 'YMD'] as const;

export const lubeLoggerParseBody = z.object({
  files: z.array(lubeLoggerFile).min(1).max(LUBELOGGER_FILES_MAX),
  date_format: z.enum(LUBELOGGER_DATE_FORMATS).default('MDY'),
});
export type LubeLoggerParseBody = z.output<typeof lubeLoggerParseBody>;

/** Where a LubeLogger vehicle goes: an existing unit of the fleet, or a new unit of that name. */
export const lubeLoggerTarget = z.union([
  z.object({ vehicle: z.string().max(Limits.stringMax), unit: id }),
  z.object({ vehicle: z.string().max(Limits.stringMax), create: name }),
]);

export const lubeLoggerCommitBody = lubeLoggerParseBody.extend({
  vehicles: z.array(lubeLoggerTarget).min(1).max(1000),
});
export type LubeLoggerCommitBody = z.output<typeof lubeLoggerCommitBody>;

export const lubeLoggerPreviewRow = z.object({
  file: z.string(),
  line: z.number().int(),
  vehicle: z.string(),
  kind: z.enum(LUBELOGGER_KINDS),
  date: z.string().nullable().describe('YYYY-MM-DD'),
  odometer: z.number().nullable().describe('As written (the fleet distance unit)'),
  name: z.string(),
  cost: z.string().nullable(),
  volume: z.string().nullable(),
  error: z.string().nullable(),
});
export type LubeLoggerPreviewRow = z.infer<typeof lubeLoggerPreviewRow>;

const kindCounts = z.object(
  Object.fromEntries(LUBELOGGER_KINDS.map((k) => [k, z.number().int()])) as Record<
    LubeLoggerKind,
    z.ZodNumber
  >,
);

export const lubeLoggerParseReply = z.object({
  vehicles: z.array(
    z.object({
      vehicle: z.string(),
      rows: z.number().int(),
      /** A unit of the fleet with exactly this name, the mapping's default. */
      unit: z.number().int().nullable(),
    }),
  ),
  counts: kindCounts,
  errors: z.number().int(),
  rows: z.array(lubeLoggerPreviewRow),
});
export type LubeLoggerParseReply = z.infer<typeof lubeLoggerParseReply>;

export const lubeLoggerCommitReply = z.object({
  units_created: z.number().int(),
  services: z.number().int(),
  archive: z.number().int(),
  fuel_fillings: z.number().int(),
  odometer: z.number().int(),
  /**
   * Odometer records of vehicles mapped to existing units that the counter rules refused (older than
   * the unit's newest reading, lower than its counter, an implausible jump); kept in the meter history.
   */
  odometer_refused: z.number().int(),
});
export type LubeLoggerCommitReply = z.infer<typeof lubeLoggerCommitReply>;
