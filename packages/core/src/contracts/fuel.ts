import { z } from 'zod';
import { Limits } from '../constants.js';
import {
  acceptingReadOnly,
  counter,
  decimal3,
  flag,
  fleetItemParams,
  id,
  okReply,
  pathId,
  unixTime,
} from './common.js';
import { customFieldValues, customFieldValuesWire } from './customfields.js';
import {
  SERVICE_ARCHIVE_RANGE_DAYS,
  SERVICE_ATTACHMENT_BYTES_MAX,
  SERVICE_ATTACHMENTS_MAX,
  serviceAttachmentWire,
} from './services.js';
import { STATISTICS_PERIOD_TEXT_MAX } from './statistics.js';

/**
 * Wire contracts of the fuel fillings API (spec §7 "Fuel fillings", §3 fleet `fm`/`ms`, §5 "Attachments";
 * PRODUCT.md "Fuel fillings"; DESIGN §5).
 *
 * Units on the wire:
 * - `volume` and `price` (per unit) are in the fleet's fuel unit `fm` (1 litres, 2 US gallons), exact
 *   decimals with at most 3 fraction digits, the way the user typed them and the library's fuel tab keeps
 *   its price "per fuel unit". The server stores them as integer thousandths of the unit they were written
 *   in (the fleet's `fm` then), so a filling reads back exactly as entered; only after the fleet changes
 *   its fuel unit are older fillings converted (to 3 decimals) on read.
 * - `total_cost` and `manual_cost` are money (integer thousandths in the database): never converted.
 * - `mileage` is km, as every counter of the API (the web converts for fleets in miles).
 * - `date` (when the tank was filled) is Unix seconds; requests may also send the fleet-zone text
 *   `YYYY-MM-DD HH:mm[:ss]` (spec §5 "Requests use YYYY-MM-DD and HH:mm:ss").
 */

/** The most rows one batch call takes. */
export const FUEL_BATCH_MAX = 5000;
/** A list period spans at most this many fleet days (as the services archive). */
export const FUEL_RANGE_DAYS = SERVICE_ARCHIVE_RANGE_DAYS;
/** Attachments per filling: the caps and error 2 of service attachments (spec §5, PRODUCT.md). */
export const FUEL_ATTACHMENTS_MAX = SERVICE_ATTACHMENTS_MAX;
export const FUEL_ATTACHMENT_BYTES_MAX = SERVICE_ATTACHMENT_BYTES_MAX;
/** Station / vendor and fuel type: the spec §9 string maximum. */
export const FUEL_TEXT_MAX = Limits.stringMax;

/** `YYYY-MM-DD`, optionally with ` HH:mm` or ` HH:mm:ss` (or `T` between), in the fleet's zone. */
export const FUEL_TIME_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** When the tank was filled: Unix seconds or fleet-zone text. */
export const fuelTimeIn = z.union([
  unixTime,
  z.string().regex(FUEL_TIME_TEXT, 'Expected YYYY-MM-DD HH:mm:ss or Unix seconds'),
]);
export type FuelTimeIn = z.infer<typeof fuelTimeIn>;

const text = z.string().trim().max(FUEL_TEXT_MAX);

const fuelFields = {
  date: fuelTimeIn.optional().describe('Filled at: Unix seconds or YYYY-MM-DD HH:mm:ss (default now)'),
  fuel_type: text.optional().describe("Fuel type, a name of the library's fuel tab; new names join it"),
  volume: decimal3({ positive: true }).describe("Volume in the fleet's fuel unit"),
  price: decimal3().nullable().optional().describe('Price per fuel unit'),
  manual_cost: decimal3()
    .nullable()
    .optional()
    .describe('Total cost entered by hand; when null the total is volume × price'),
  mileage: counter.nullable().optional().describe("Mileage at the filling, km (default the unit's counter)"),
  full: flag.optional().describe('1 full tank (default), 0 partial'),
  station: text.optional().describe('Station or vendor'),
  description: z.string().max(Limits.descriptionMax).optional(),
  cf: customFieldValues.optional(),
};

/** POST .../fuel-fillings: a filling of a unit of the fleet. */
export const fuelFillingCreateBody = z.object({ uid: id.describe('Unit id'), ...fuelFields });
export type FuelFillingCreateInput = z.infer<typeof fuelFillingCreateBody>;

/** A row of POST .../fuel-fillings/batch (the import): the total may also come as `total_cost`. */
export const fuelFillingImportRow = fuelFillingCreateBody.extend({
  total_cost: decimal3().nullable().optional().describe('The total as the import names it (= manual_cost)'),
});
export type FuelFillingImportRow = z.infer<typeof fuelFillingImportRow>;

/** POST .../fuel-fillings/batch: rows are checked one by one, so the reply lists every row's failures. */
export const fuelFillingImportBody = z.object({
  fuel_fillings: z.array(z.unknown().describe('A row as fuelFillingImportRow')).min(1).max(FUEL_BATCH_MAX),
});

/** Fields of a filling as read that no write sets: accepted and dropped (the GET → PUT round trip). */
const FUEL_COMPUTED = ['tm', 'updated', 'total_cost', 'ats', 'fm', 'consumption'] as const;
/** The creator of a filling: stored, never changed by an update (refused unless equal). */
const FUEL_FIXED = ['cid'] as const;

/** PUT .../fuel-fillings/{id}: any field; the filling as read is accepted (`id` is the path's). */
export const fuelFillingUpdateBody = acceptingReadOnly(
  z.object({ uid: id.optional().describe('Unit id'), ...fuelFields, volume: fuelFields.volume.optional() }),
  ['id', ...FUEL_COMPUTED],
  FUEL_FIXED,
);
export type FuelFillingUpdateInput = z.output<typeof fuelFillingUpdateBody>;

/** GET .../fuel-fillings and .../units/{id}/fuel-fillings: from/to are YYYY-MM-DD or Unix seconds. */
export const fuelFillingListQuery = z.object({
  from: z.string().min(1).max(STATISTICS_PERIOD_TEXT_MAX),
  to: z.string().min(1).max(STATISTICS_PERIOD_TEXT_MAX),
});

/** POST .../fuel-fillings/{id}/attachments: the parts are read by the handler (any other body: error 4). */
export const fuelAttachmentUploadBody = z
  .unknown()
  .describe('multipart/form-data with one or more file parts');
/** .../fuel-fillings/{id}/attachments/{aid}. */
export const fuelAttachmentParams = fleetItemParams.extend({ aid: pathId });

// ---- Replies ----

/** A fuel filling (PRODUCT.md "Fuel fillings"). */
export const fuelFillingWire = z.object({
  id,
  uid: id.describe('Unit id'),
  date: unixTime.describe('Filled at, Unix seconds'),
  fuel_type: z.string(),
  volume: z.number().describe("Volume in the fleet's fuel unit (fm)"),
  price: z.number().nullable().describe('Price per fuel unit; null when only the total was entered'),
  manual_cost: z.number().nullable().describe('Total entered by hand, or null'),
  total_cost: z.number().describe('manual_cost, else volume × price (3 decimals)'),
  mileage: z.number().nullable().describe('Mileage at the filling, km'),
  full: flag.describe('1 full tank, 0 partial'),
  station: z.string().describe('Station or vendor'),
  description: z.string(),
  consumption: z
    .number()
    .nullable()
    .describe(
      'For a full-tank filling after an earlier one: fuel since it (partials included) per 100 km in a km fleet, distance per fuel unit (mpg) in a miles fleet; null otherwise',
    ),
  fm: z.number().int().describe('Fuel unit of volume and price: 1 litres, 2 US gallons'),
  ats: z.number().int().describe('Attachment count'),
  cid: id.nullable().describe('Creator user id'),
  tm: unixTime.describe('Created, Unix seconds'),
  updated: unixTime.describe('Last changed, Unix seconds'),
  cf: customFieldValuesWire,
});
export type FuelFillingWire = z.infer<typeof fuelFillingWire>;

/** Lists come wrapped in the field the spec names (spec §7: "reply field fuel_fillings"). */
export const fuelFillingListReply = z.object({ fuel_fillings: z.array(fuelFillingWire) });
export const fuelFillingDeleteReply = okReply;

/** A stored file of a filling: the shape of service attachments. */
export const fuelAttachmentWire = serviceAttachmentWire;
export type FuelAttachmentWire = z.infer<typeof fuelAttachmentWire>;
export const fuelAttachmentListReply = z.object({ attachments: z.array(fuelAttachmentWire) });
export const fuelAttachmentDeleteReply = okReply;
