import { z } from 'zod';
import { Limits, ServiceFlag } from '../constants.js';
import { OVERDUE_MASK } from '../status.js';
import {
  acceptingReadOnly,
  counter,
  decimal3,
  flag,
  fleetItemParams,
  id,
  objectType,
  okReply,
  pathId,
  unixTime,
} from './common.js';
import { customFieldValues, customFieldValuesWire } from './customfields.js';
import { LINE_ITEMS_MAX, lineItemLineInput, lineWire } from './lineitems.js';

/**
 * Wire contracts of the services API (spec §3 "Service", §4, §5 "Import: services" and "Attachments",
 * §7 "Services"; PRODUCT.md "Services"; DESIGN §5). Distances are km and engine hours hours on the wire;
 * dates are Unix seconds (the start of the fleet-zone day); money is a number with at most 3 decimals.
 */

/** The most rows (or ids) one batch call takes. */
export const SERVICE_BATCH_MAX = 5000;
/** "Notify N days before" of a Due service: at most this many days. */
export const SERVICE_NOTIFY_DAYS_MAX = 365;
/** An archive (or statistics) period spans at most this many days, so one call stays bounded. */
export const SERVICE_ARCHIVE_RANGE_DAYS = 366;
/** Attachments per service (PRODUCT.md "Services"; error 2 beyond). */
export const SERVICE_ATTACHMENTS_MAX = 20;
/** Total bytes of a service's attachments (spec §5 "Attachments": 32 MB). */
export const SERVICE_ATTACHMENT_BYTES_MAX = Limits.maxFileSize;

/**
 * Bits of `f` that only the server sets (spec §4): overdue 4 with its kinds 256/512/1024 (the status
 * engine) and manually 128 (a Due service made or set back by a person). A write ignores them.
 */
export const SERVICE_SERVER_FLAGS = OVERDUE_MASK | ServiceFlag.manually;

/** Unix seconds or YYYY-MM-DD (spec §5 "Requests use YYYY-MM-DD"). */
export const serviceDateIn = z.union([
  z.number().int().min(0).max(Limits.intUnsigned),
  z.string().regex(/^\d{4}-\d{1,2}-\d{1,2}$/, 'Expected YYYY-MM-DD'),
]);
export type ServiceDateIn = z.infer<typeof serviceDateIn>;

const serviceName = z.string().trim().min(1).max(Limits.stringMax);
const serviceDescription = z.string().max(Limits.descriptionMax);

/** Status a service may be created with: Due 1, In progress 2 or Closed 8 (spec §4). */
const createStatus = z.union([z.literal(1), z.literal(2), z.literal(8)]);

/**
 * The status an update asks for: 1 Due, 2 In progress, 8 Closed or 16 Rejected. The bits only the
 * server sets (SERVICE_SERVER_FLAGS) are dropped first, so `f` as read (a manual Due service reads
 * 129, an overdue one 1|4|256…) writes back as the status it carries.
 */
const updateStatus = z
  .number()
  .int()
  .min(0)
  .max(Limits.intSigned)
  .transform((f) => f & ~SERVICE_SERVER_FLAGS)
  .pipe(z.union([z.literal(1), z.literal(2), z.literal(8), z.literal(16)]))
  .describe(
    'Status: 1 Due, 2 In progress, 8 Closed, 16 Rejected; the bits 4, 128, 256, 512 and 1024 only the server sets are ignored',
  );

const serviceFields = {
  n: serviceName,
  description: serviceDescription.optional(),
  ivid: id.nullable().optional(),
  limit_date: serviceDateIn.nullable().optional(),
  start_date: serviceDateIn.nullable().optional(),
  end_date: serviceDateIn.nullable().optional(),
  mileage: counter.nullable().optional(),
  engine_hours: counter.nullable().optional(),
  limit_mileage: counter.nullable().optional(),
  limit_engine_hours: counter.nullable().optional(),
  notify_days: z.number().int().min(0).max(SERVICE_NOTIFY_DAYS_MAX).nullable().optional(),
  li: z.array(lineItemLineInput).max(LINE_ITEMS_MAX).optional(),
  manual_cost: decimal3().nullable().optional(),
  cf: customFieldValues.optional(),
};

/** POST .../services: a new service as Due, In progress or Closed. */
export const serviceCreateBody = z.object({
  t: objectType,
  uid: id,
  f: createStatus,
  ...serviceFields,
});
export type ServiceCreateInput = z.infer<typeof serviceCreateBody>;

/**
 * A row of the service import (spec §5 "Import: services"): mileage and engine hours are integers; the
 * total cost may come as `total_cost` (an integer or a decimal with a dot).
 */
export const serviceImportRow = serviceCreateBody.extend({
  mileage: z.number().int().min(0).max(Limits.intSigned).nullable().optional(),
  engine_hours: z.number().int().min(0).max(Limits.intSigned).nullable().optional(),
  total_cost: decimal3().nullable().optional(),
});
export type ServiceImportRow = z.infer<typeof serviceImportRow>;

/** POST .../services/batch: rows are checked one by one, so the reply lists every row's failures. */
export const serviceImportBody = z.object({
  services: z.array(z.unknown().describe('A row as serviceImportRow')).min(1).max(SERVICE_BATCH_MAX),
});

/** Everything but object type, object and interval: those are SERVICE_FIXED. */
const { ivid: _interval, ...serviceUpdatable } = serviceFields;
const serviceUpdateFields = z.object({
  f: updateStatus.optional(),
  ...serviceUpdatable,
  n: serviceName.optional(),
});

/**
 * Stored fields of a service that no update changes (PRODUCT.md "Services": object type, object,
 * interval; the creator): sent back equal they are no change, a different value is refused (400).
 */
const SERVICE_FIXED = ['t', 'uid', 'ivid', 'cid'] as const;

/** Fields of a service as read that the server derives (spec §3; PRODUCT.md "Written-back records"). */
const SERVICE_COMPUTED = [
  'eid',
  'tm',
  'updated',
  'forecast_date',
  'last_date',
  'last_mileage',
  'last_engine_hours',
  'current_mileage',
  'current_engine_hours',
  'total_cost',
  'ats',
  'ins',
] as const;

/** PUT .../services/{id}: the service as read is accepted; `id` is the path's. */
export const serviceUpdateBody = acceptingReadOnly(
  serviceUpdateFields,
  ['id', ...SERVICE_COMPUTED],
  SERVICE_FIXED,
);
export type ServiceUpdateInput = z.output<typeof serviceUpdateBody>;

/** One row of PUT .../services/batch: a service as read, `id` naming it. */
export const serviceBatchUpdateRow = acceptingReadOnly(
  serviceUpdateFields.extend({ id }),
  SERVICE_COMPUTED,
  SERVICE_FIXED,
);
export type ServiceBatchUpdateRow = z.output<typeof serviceBatchUpdateRow>;
export const serviceBatchUpdateBody = z.object({
  services: z.array(serviceBatchUpdateRow).min(1).max(SERVICE_BATCH_MAX),
});

/** POST .../services/status/batch: set in progress (2), close (8) or reject (16) the listed ids. */
export const serviceStatusBatchBody = z.object({
  f: z.union([z.literal(2), z.literal(8), z.literal(16)]),
  services: z.unknown().describe('Service ids, a list of numbers'),
  end_date: serviceDateIn.optional().describe('Closing: the one end date of all (default today)'),
});
export type ServiceStatusBatchBody = z.infer<typeof serviceStatusBatchBody>;

/** DELETE .../services/archived/batch. */
export const serviceDeleteBatchBody = z.object({
  services: z.unknown().describe('Archived service ids, a list of numbers'),
});

/** POST .../services/{id}/status: rejection only (spec §7). */
export const serviceRejectBody = z.object({ f: z.literal(16) });
/** PUT .../services/{id}/confirm takes no fields. */
export const serviceConfirmBody = z.object({}).optional();

/** GET .../services: open services, optionally of one object. */
export const serviceListQuery = z.object({
  object_type: objectType.optional(),
  object_id: pathId.optional(),
});
export type ServiceListQuery = z.infer<typeof serviceListQuery>;

/** GET .../services/archived: from/to as Unix seconds or YYYY-MM-DD, whole fleet days. */
export const serviceArchiveQuery = z.object({ from: z.string().min(1), to: z.string().min(1) });

/** POST .../services/{id}/attachments: the parts are read by the handler (any other body: error 4). */
export const serviceAttachmentUploadBody = z
  .unknown()
  .describe('multipart/form-data with one or more file parts');

/** .../services/{id}/attachments/{aid}. */
export const serviceAttachmentParams = fleetItemParams.extend({ aid: pathId });

// ---- Replies ----

/**
 * A service (spec §3 "Service"). `total_cost` is the sum of its line items (quantity × cost), or the
 * hand-entered total (`manual_cost`) when it has none (PRODUCT.md "Services").
 */
export const serviceWire = z.object({
  id,
  uid: id.describe('Owner object id (unit, driver or trailer)'),
  t: objectType.describe('Owner type: u unit, d driver, t trailer'),
  f: z
    .number()
    .int()
    .describe(
      'Status flags (spec §4): 1 Due, 2 In progress, 4 overdue with 256 by mileage, 512 by engine hours, 1024 by days, 8 Closed, 16 Rejected, 128 manually',
    ),
  n: z.string().describe('Name'),
  description: z.string(),
  cid: id.nullable().describe('Creator user id; null when made by the status engine'),
  ivid: id.nullable().describe('Interval id; null for a one-off service'),
  eid: id.nullable().describe("Assignment id (the interval's binding to the object)"),
  tm: unixTime.describe('Created, Unix seconds'),
  updated: unixTime.describe('Last changed, Unix seconds'),
  start_date: unixTime.nullable(),
  end_date: unixTime.nullable(),
  limit_date: unixTime.nullable().describe('Planned date'),
  forecast_date: unixTime.nullable().describe('Expected date from the average daily use'),
  limit_mileage: z.number().nullable().describe('Due at this mileage, km'),
  limit_engine_hours: z.number().nullable().describe('Due at these engine hours'),
  last_date: unixTime.nullable().describe('Date of the last service of the interval'),
  last_mileage: z.number().nullable().describe('Mileage at the last service, km'),
  last_engine_hours: z.number().nullable().describe('Engine hours at the last service'),
  current_mileage: z.number().nullable().describe("The owner's mileage now, km; null without live data"),
  current_engine_hours: z.number().nullable().describe("The owner's engine hours now"),
  mileage: z.number().nullable().describe('Service mileage, km'),
  engine_hours: z.number().nullable().describe('Service engine hours'),
  total_cost: z.number(),
  manual_cost: z.number().nullable().describe('Total entered by hand, only without line items'),
  notify_days: z.number().int().nullable().describe('Notify this many days before (Due only)'),
  li: z.array(lineWire),
  ats: z.number().int().describe('Attachment count'),
  ins: flag.describe('The owner has a service in progress'),
  cf: customFieldValuesWire,
});
export type ServiceWire = z.infer<typeof serviceWire>;

/** Corrections of an archived service (PRODUCT.md "Services"); the status stays frozen. */
const serviceArchiveFields = z.strictObject({
  n: serviceName.optional(),
  description: serviceDescription.optional(),
  end_date: serviceDateIn.optional(),
  mileage: counter.nullable().optional(),
  engine_hours: counter.nullable().optional(),
  li: z.array(lineItemLineInput).max(LINE_ITEMS_MAX).optional(),
  manual_cost: decimal3().nullable().optional(),
  cf: customFieldValues.optional(),
});

/** Stored fields of an archived service that a correction cannot change: its status, plan and owner. */
const SERVICE_ARCHIVE_FIXED = [
  ...SERVICE_FIXED,
  'f',
  'start_date',
  'limit_date',
  'limit_mileage',
  'limit_engine_hours',
  'notify_days',
] as const;

/**
 * PUT .../services/archived/{id}: the archived service as read is accepted; a field it cannot correct
 * is refused when it differs from the stored value, derived values are dropped, other keys refused.
 */
export const serviceArchivePatch = acceptingReadOnly(
  serviceArchiveFields,
  Object.keys(serviceWire.shape).filter(
    (k) => !(k in serviceArchiveFields.shape) && !(SERVICE_ARCHIVE_FIXED as readonly string[]).includes(k),
  ),
  SERVICE_ARCHIVE_FIXED,
);
export type ServiceArchivePatch = z.output<typeof serviceArchivePatch>;

/** Lists come wrapped in a named field (DESIGN §5). */
export const serviceListReply = z.object({ services: z.array(serviceWire) });

/** Deleting archived services: `deleted` is how many went. */
export const serviceDeleteReply = z.object({ error: z.literal(0), deleted: z.number().int() });
export type ServiceDeleteWire = z.infer<typeof serviceDeleteReply>;

/** A stored file of a service (its bytes are read one by one). */
export const serviceAttachmentWire = z.object({
  id,
  name: z.string().describe('Original file name'),
  size: z.number().int().describe('Bytes'),
  content_type: z.string(),
  created: unixTime.describe('Uploaded, Unix seconds'),
});
export type ServiceAttachmentWire = z.infer<typeof serviceAttachmentWire>;
export const serviceAttachmentListReply = z.object({ attachments: z.array(serviceAttachmentWire) });
export const serviceAttachmentDeleteReply = okReply;
