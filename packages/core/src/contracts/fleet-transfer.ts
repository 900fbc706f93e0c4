import { z } from 'zod';
import { ALL_NOTIFICATION_KINDS, LANGUAGES, Limits } from '../constants.js';
import { flag, id, objectType } from './common.js';
import { CUSTOM_VALUE_MAX, CUSTOM_VALUES_MAX } from './customfields.js';
import { workshopTransfer } from './fleet-transfer-workshop.js';
import { deviceId, UNIT_DEVICE_ID_MAX, vehicleProfileBody } from './fleets.js';
import {
  BOT_CHAT_MAX,
  BOT_CHATS_MAX,
  channelUrl,
  EMAIL_MAX,
  MAIL_RECIPIENTS_MAX,
} from './notification-channels.js';
import { INAPP_SETUP_USERS_MAX } from './notifications.js';
import { SERVICE_ATTACHMENT_BYTES_MAX, SERVICE_ATTACHMENTS_MAX } from './services.js';

/**
 * Fleet export and import (PRODUCT.md "Administration", migration; spec §2
 * `/migration/{fleetId}`, admin on that fleet only, spec §6) and the migration from LubeLogger's CSV
 * exports.
 *
 * The export document is one JSON file holding a whole fleet. Values are written as they are stored
 * (ARCHITECTURE.md "Data rules"): times in Unix seconds, mileage in km, money, quantities and volumes as
 * integer thousandths, a fuel filling's volume and price in the fuel unit it was written in. Ids are the
 * source fleet's; an import remaps every one of them.
 */

export const FLEET_TRANSFER_FORMAT = 'fleetkeep-fleet';
/**
 * Version 2 added the meter history (`meter_readings`, `counter_corrections`) and the notification
 * set-ups; version 3 the units' total counters and device identifiers; version 4 the units' vehicle
 * profile and photo (docs/product.md "The vehicle profile"); version 5 the issues of units and trailers
 * with their photos (docs/product.md "Issues"); version 6 the inspection forms, inspections, work orders
 * and vehicle assignments (contracts/fleet-transfer-workshop.ts). The importer reads versions 1 to 5 too
 * (those collections empty; a unit's total taken as its actual counter, no identifier, no profile, no
 * issues, no workshop records).
 */
export const FLEET_TRANSFER_VERSION = 6;
/** Versions the importer reads. */
export const FLEET_TRANSFER_VERSIONS = [1, 2, 3, 4, 5, 6] as const;
/** Body limit of `POST .../transfer` (the document with its attachments in base64). */
export const FLEET_TRANSFER_BODY_MAX = 256 * 1024 * 1024;
/** Records per collection of one document. */
export const FLEET_TRANSFER_ROWS_MAX = 200_000;
/** Line items per interval or service. */
export const FLEET_TRANSFER_LINES_MAX = 500;
/** Longest free text (descriptions, notes) of a record. */
export const FLEET_TRANSFER_TEXT_MAX = 10_000;
/** The collections of the CSV export (`GET .../export/{collection}.csv`). */
export const FLEET_TRANSFER_CSV_COLLECTIONS = [
  'units',
  'drivers',
  'trailers',
  'custom_fields',
  'line_items',
  'intervals',
  'assignments',
  'services',
  'archive',
  'fuel_fillings',
] as const;
export type FleetTransferCsvCollection = (typeof FLEET_TRANSFER_CSV_COLLECTIONS)[number];

const int = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const nonNeg = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const time = nonNeg;
const name = z.string().trim().min(1).max(Limits.stringMax);
const text = z.string().max(FLEET_TRANSFER_TEXT_MAX);
const num = z.number().finite().min(0).max(1e12);
const cf = z
  .array(z.object({ id, v: z.string().max(CUSTOM_VALUE_MAX) }))
  .max(CUSTOM_VALUES_MAX)
  .default([]);

/** A line item of an interval or a service: kind 1 labour, 2 part, 4 fuel; qty and cost in thousandths. */
export const transferLine = z.object({
  name,
  kind: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  qty: int,
  cost: int,
});

/** A file of a service or a fuel filling; `data` is base64, within the per-owner caps (spec §5). */
export const transferAttachment = z.object({
  name: z.string().min(1).max(255),
  content_type: z.string().max(255),
  data: z.string().max(Math.ceil(SERVICE_ATTACHMENT_BYTES_MAX / 3) * 4),
  created_at: time,
});
const attachments = z.array(transferAttachment).max(SERVICE_ATTACHMENTS_MAX).default([]);

export const transferFleet = z.object({
  name: z.string().max(Limits.stringMax),
  tz: int,
  cur: z.string().max(Limits.stringMax),
  ms: int,
  fm: int,
});

/**
 * A unit: its actual counters (total less the base at joining plus pulled history, km and hours), its
 * total counters (what its odometer and hour meter read; the interval baselines, services' and the meter
 * history's values are on that scale) and its device identifier (version 3; absent before).
 */
export const transferUnit = z.object({
  id,
  name,
  unit_type_id: id.nullable(),
  mileage: num,
  engine_hours: num,
  total_mileage: num.optional(),
  total_engine_hours: num.optional(),
  device_id: z.string().max(UNIT_DEVICE_ID_MAX).optional(),
  cf,
  vp: vehicleProfileBody.optional().describe('Vehicle profile (version 4)'),
  attachments: z.array(transferAttachment).max(1).default([]).describe('The unit photo (version 4)'),
});

export const transferPerson = z.object({
  id,
  name,
  ds: z.string().max(FLEET_TRANSFER_TEXT_MAX),
  c: z.string().max(FLEET_TRANSFER_TEXT_MAX),
  cf,
});

export const transferCustomField = z.object({
  id,
  name,
  type: z.union([z.literal(1), z.literal(2)]),
  options: z.array(z.string().max(Limits.stringMax)).max(1000),
  owner_type: z.enum(['u', 'd', 't', 's', 'f']),
});

export const transferLibraryItem = z.object({
  id,
  name,
  kind: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  cost: int,
});

export const transferInterval = z.object({
  id,
  name,
  description: text,
  cnme: int,
  cnmd: num,
  cnmo: num,
  cnehe: int,
  cnehd: num,
  cneho: num,
  de: int,
  dd: int,
  du: z.enum(['d', 'w', 'm', 'y']),
  do: int,
  created_at: time,
  updated_at: time,
  li: z.array(transferLine).max(FLEET_TRANSFER_LINES_MAX).default([]),
});

/** An interval's assignment to an object with its baseline (DESIGN §5 `lcnm`, `lceh`, `ltm`, `cnt`). */
export const transferAssignment = z.object({
  id,
  interval_id: id,
  object_type: objectType,
  object_id: id,
  lcnm: num,
  lceh: num,
  ltm: time,
  cnt: nonNeg,
});

const opt = <T extends z.ZodTypeAny>(s: T) => s.nullable();

/** A service (open ones in `services`, closed and rejected ones in `archive`, spec §4). */
export const transferService = z.object({
  id,
  object_type: objectType,
  object_id: id,
  interval_id: opt(id),
  assignment_id: opt(id),
  f: z.number().int().min(0).max(1023),
  name,
  description: text,
  created_at: time,
  updated_at: time,
  start_date: opt(time),
  end_date: opt(time),
  planned_date: opt(time),
  forecast_date: opt(time),
  limit_mileage: opt(num),
  limit_engine_hours: opt(num),
  last_date: opt(time),
  last_mileage: opt(num),
  last_engine_hours: opt(num),
  mileage: opt(num),
  engine_hours: opt(num),
  manual_cost: opt(int),
  notify_days: opt(int),
  cf,
  li: z.array(transferLine).max(FLEET_TRANSFER_LINES_MAX).default([]),
  attachments,
});

export const transferFuelFilling = z.object({
  id,
  unit_id: id,
  filled_at: time,
  fuel_type: z.string().max(Limits.stringMax),
  volume: int,
  volume_unit: z.union([z.literal(1), z.literal(2)]),
  price: opt(int),
  manual_cost: opt(int),
  total_cost: int,
  mileage: opt(num),
  full_tank: z.union([z.literal(0), z.literal(1)]),
  station: z.string().max(Limits.stringMax * 2),
  description: text,
  cf,
  created_at: time,
  updated_at: time,
  attachments,
});

/** A user named by login (who accepted a reading, who corrected a counter, whom an in-app set-up addresses). */
const userName = z.string().min(1).max(Limits.stringMax);
/** A counter of the meter history: an actual counter may sit below zero after a device change. */
const counter = z.number().finite().min(-1e12).max(1e12);

/**
 * A row of a unit's meter history (modules/meter; core contracts/meter.ts): a device's or an import's
 * reading that was refused, a baseline, a day's sample or an accepted refusal. Counters are the unit's
 * actual counters (as `transferUnit` has them), km and hours; `tm_ms` the time the reading carries.
 */
export const transferMeterReading = z.object({
  id,
  unit_id: id,
  tm_ms: nonNeg,
  received_at: time,
  source: z.enum(['device', 'import']),
  status: z.enum(['accepted', 'baseline', 'refused']),
  mileage: opt(counter),
  engine_hours: opt(counter),
  old_mileage: opt(counter),
  old_engine_hours: opt(counter),
  reason: opt(z.string().max(Limits.stringMax)),
  payload: opt(z.string().max(FLEET_TRANSFER_TEXT_MAX)),
  device_id: z.string().max(Limits.stringMax),
  /** Who accepted a refused reading (login); the importer maps it to a member of the fleet or itself. */
  accepted_by: opt(userName),
  accepted_at: opt(time),
});
export type TransferMeterReading = z.output<typeof transferMeterReading>;

/** A hand correction of a unit's counter (old and new actual value; `by` the login of who made it). */
export const transferCorrection = z.object({
  id,
  unit_id: id,
  tm: time,
  field: z.enum(['mileage', 'engine_hours']),
  old_value: counter,
  new_value: counter,
  by: opt(userName),
});
export type TransferCorrection = z.output<typeof transferCorrection>;

/**
 * An issue of a unit or trailer (version 5): its status and source as stored; the reporter and who
 * ended it by login (a member of the target fleet of that login, else the importing user). A work
 * order id is not carried (work orders are not in the document).
 */
export const transferIssue = z.object({
  id,
  object_type: z.enum(['u', 't']),
  object_id: id,
  title: z.string().min(1).max(Limits.stringMax),
  description: text,
  priority: z.number().int().min(1).max(4),
  status: z.enum(['open', 'workorder', 'resolved', 'closed']),
  note: text,
  reported_by: opt(userName),
  reported_at: time,
  mileage: opt(num),
  engine_hours: opt(num),
  inspection_item: opt(z.string().max(Limits.stringMax)),
  ended_at: opt(time),
  ended_by: opt(userName),
  created_at: time,
  updated_at: time,
  attachments,
});
export type TransferIssue = z.output<typeof transferIssue>;

const setupBase = {
  id,
  name,
  enabled: flag,
  kinds: z.number().int().min(1).max(ALL_NOTIFICATION_KINDS),
};
/**
 * Set-ups never carry their secret (a bot token, a webhook signing secret): `secret_set` 1 says the
 * source had one; the import creates such a set-up switched off and lists it to have its secret
 * entered again (a secret must not travel in a file that is mailed around).
 */
const secretSet = flag.describe('1: the source had a secret, to be entered again after import');
export const transferNotificationSetup = z.discriminatedUnion('channel', [
  z.object({
    ...setupBase,
    channel: z.literal('inapp'),
    /** Logins of the members it addresses; empty: every member. */
    users: z.array(userName).max(INAPP_SETUP_USERS_MAX),
  }),
  z.object({
    ...setupBase,
    channel: z.literal('mail'),
    lang: z.enum(LANGUAGES),
    recipients: z.array(z.string().trim().max(EMAIL_MAX).pipe(z.email())).min(1).max(MAIL_RECIPIENTS_MAX),
  }),
  z.object({
    ...setupBase,
    channel: z.literal('bot'),
    lang: z.enum(LANGUAGES),
    url: channelUrl,
    chats: z.array(z.string().trim().min(1).max(BOT_CHAT_MAX)).min(1).max(BOT_CHATS_MAX),
    secret_set: secretSet,
  }),
  z.object({
    ...setupBase,
    channel: z.literal('webhook'),
    lang: z.enum(LANGUAGES).nullable(),
    url: channelUrl,
    secret_set: secretSet,
  }),
]);
export type TransferNotificationSetup = z.output<typeof transferNotificationSetup>;

const rows = <T extends z.ZodTypeAny>(s: T) => z.array(s).max(FLEET_TRANSFER_ROWS_MAX).default([]);

/** Version 6: the workshop records (contracts/fleet-transfer-workshop.ts). */
const workshop = workshopTransfer({ attachment: transferAttachment, line: transferLine, text });
export type TransferInspectionForm = z.output<typeof workshop.inspectionForm>;
export type TransferInspection = z.output<typeof workshop.inspection>;
export type TransferWorkOrder = z.output<typeof workshop.workOrder>;
export type TransferVehicleAssignment = z.output<typeof workshop.vehicleAssignment>;

/** The whole export document. */
export const fleetTransferDocument = z.object({
  format: z.literal(FLEET_TRANSFER_FORMAT),
  version: z.union(
    FLEET_TRANSFER_VERSIONS.map((v) => z.literal(v)) as [
      z.ZodLiteral<1>,
      z.ZodLiteral<2>,
      z.ZodLiteral<3>,
      z.ZodLiteral<4>,
      z.ZodLiteral<5>,
      z.ZodLiteral<6>,
    ],
  ),
  exported_at: time,
  fleet: transferFleet,
  units: rows(transferUnit),
  drivers: rows(transferPerson),
  trailers: rows(transferPerson),
  custom_fields: rows(transferCustomField),
  line_items: rows(transferLibraryItem),
  intervals: rows(transferInterval),
  assignments: rows(transferAssignment),
  services: rows(transferService),
  archive: rows(transferService),
  fuel_fillings: rows(transferFuelFilling),
  meter_readings: rows(transferMeterReading),
  counter_corrections: rows(transferCorrection),
  notification_setups: rows(transferNotificationSetup),
  issues: rows(transferIssue),
  inspection_forms: rows(workshop.inspectionForm),
  inspections: rows(workshop.inspection),
  work_orders: rows(workshop.workOrder),
  vehicle_assignments: rows(workshop.vehicleAssignment),
});
export type FleetTransferDocument = z.output<typeof fleetTransferDocument>;
export type TransferService = z.output<typeof transferService>;
export type TransferFuelFilling = z.output<typeof transferFuelFilling>;

/**
 * What the created units' device identifiers become (identifiers are unique across the installation):
 * `keep` the document's ones, `enter` new ones (`device_ids`). Units matched by name keep their own.
 */
export const FLEET_TRANSFER_DEVICE_MODES = ['keep', 'enter'] as const;

/**
 * `POST /api/fleets/{fid}/transfer`: a document to import into fleet `fid`. `device_ids` names, per
 * source unit id, the identifier entered for it (either mode); null or absent under `enter`: a
 * placeholder `import-…` until the tracker's identifier is entered on the unit's page. An identifier in
 * use (on this server the exported unit itself may still hold it) is refused: 409, one detail per unit
 * (`body.document.units.{i}.device_id` or `body.device_ids.{j}.uid`), nothing stored.
 */
export const fleetTransferBody = z.object({
  document: fleetTransferDocument,
  devices: z
    .enum(FLEET_TRANSFER_DEVICE_MODES)
    .default('enter')
    .describe("keep: the document's device identifiers; enter: those of device_ids, else placeholders"),
  device_ids: z
    .array(z.object({ unit: id.describe('Unit id in the document'), uid: deviceId.nullable() }))
    .max(FLEET_TRANSFER_ROWS_MAX)
    .default([]),
});
export type FleetTransferBody = z.output<typeof fleetTransferBody>;

export const fleetTransferCsvParams = z.object({
  fid: z.coerce.number().int().positive().max(Limits.intSigned),
  /** `<collection>.csv`. */
  file: z.enum(
    FLEET_TRANSFER_CSV_COLLECTIONS.map((c) => `${c}.csv` as const) as [`${FleetTransferCsvCollection}.csv`],
  ),
});

const TRANSFER_COUNT_KEYS = [
  'units',
  'drivers',
  'trailers',
  'custom_fields',
  'line_items',
  'intervals',
  'assignments',
  'services',
  'archive',
  'fuel_fillings',
  'attachments',
  'meter_readings',
  'counter_corrections',
  'notification_setups',
  'issues',
  'inspection_forms',
  'inspections',
  'work_orders',
  'vehicle_assignments',
] as const;
const counts = z.object(
  Object.fromEntries(TRANSFER_COUNT_KEYS.map((k) => [k, z.number().int()])) as Record<
    (typeof TRANSFER_COUNT_KEYS)[number],
    z.ZodNumber
  >,
);
export type TransferCounts = z.infer<typeof counts>;
const idPairs = z.array(z.tuple([z.number().int(), z.number().int()])).describe('[source id, new id]');

/**
 * The import's reply: per collection how many records were created, matched to existing ones (units,
 * drivers, trailers by name; intervals, custom fields and library items by name; assignments by
 * interval and object) and skipped, and the id map of the objects and intervals.
 */
export const fleetTransferReply = z.object({
  created: counts,
  matched: counts,
  skipped: counts,
  ids: z.object({ units: idPairs, drivers: idPairs, trailers: idPairs, intervals: idPairs }),
  /** Set-ups created switched off because their secret (bot token, signing secret) must be entered again. */
  secrets: z.array(z.object({ channel: z.enum(['bot', 'webhook']), id: z.number().int(), name: z.string() })),
});
export type FleetTransferReply = z.infer<typeof fleetTransferReply>;
