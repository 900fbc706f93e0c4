/** Release version used for language files and error reporting (spec §9). */
export const RELEASE = '4.4.34';

/** Service and interval status flags (spec §4). */
export const ServiceFlag = {
  new: 0,
  upcoming: 1,
  inProgress: 2,
  overdue: 4,
  closed: 8,
  rejected: 16,
  manually: 128,
  overdueByMileage: 256,
  overdueByEngineHours: 512,
  overdueByDays: 1024,
} as const;

/** Notification kinds use the status flag values as bits (DESIGN §6). */
export const NotificationKind = {
  upcoming: 1,
  inProgress: 2,
  overdue: 4,
  closed: 8,
  rejected: 16,
  /**
   * A unit reported a fault code its fleet counts as critical (contracts/fault-codes.ts). Sent by the
   * notification channels (e-mail, bot, webhook) only: the in-app kinds and a user's mask stay 1…16.
   */
  criticalFault: 32,
  /**
   * The workshop loop (docs/product.md "Workshop"): an issue reported (high and critical at once), a work
   * order assigned or completed, an inspection with a failed item. Channel kinds, as `criticalFault`;
   * each joins `ALL_CHANNEL_KINDS` with the module that sends it.
   */
  issueReported: 64,
  workOrderAssigned: 128,
  workOrderCompleted: 256,
  inspectionFailed: 512,
  /**
   * The records beside maintenance (docs/product.md "Store rights"): a part's stock at or under its
   * threshold, a document that nears its expiry, a tyre's tread under the fleet's threshold. Channel
   * kinds, as above; each joins `ALL_CHANNEL_KINDS` with the module that sends it.
   */
  lowStock: 1024,
  documentExpiring: 2048,
  treadLow: 4096,
} as const;
export const ALL_NOTIFICATION_KINDS = 31;
/**
 * The kinds a channel set-up (e-mail, bot, webhook) may send: the service kinds, a critical fault code,
 * an issue reported, an inspection with defects, a work order assigned or completed, a document
 * nearing its expiry, a tyre's tread low, a part's stock low.
 */
export const ALL_CHANNEL_KINDS =
  ALL_NOTIFICATION_KINDS |
  NotificationKind.criticalFault |
  NotificationKind.issueReported |
  NotificationKind.inspectionFailed |
  NotificationKind.workOrderAssigned |
  NotificationKind.workOrderCompleted |
  NotificationKind.documentExpiring |
  NotificationKind.treadLow |
  NotificationKind.lowStock;

/**
 * Fleet permission bit mask (spec §6). Fuel fillings share the service bits. The bits from 1024 on are
 * beyond the spec, for the workshop loop (docs/product.md "Workshop rights"): issues, work orders,
 * inspections, vehicle assignments, and adding fuel fillings without managing them (a driver's right).
 * The bits from 262144 on keep the records beside maintenance (docs/product.md "Store rights"): parts
 * and stock, documents with renewals, tyres and other components.
 */
export const Acl = {
  admin: 1,
  viewInterval: 2,
  manageInterval: 4,
  viewMap: 16,
  viewNotification: 32,
  viewService: 64,
  manageService: 128,
  viewFuelFilling: 64,
  manageFuelFilling: 128,
  archiveEdit: 256,
  archiveDelete: 512,
  deleteFuelfilling: 512,
  reportIssue: 1024,
  manageIssue: 2048,
  viewWorkOrder: 4096,
  manageWorkOrder: 8192,
  submitInspection: 16384,
  manageInspection: 32768,
  manageAssignment: 65536,
  addFuelFilling: 131072,
  viewPart: 262144,
  managePart: 524288,
  viewDocument: 1048576,
  manageDocument: 2097152,
  viewComponent: 4194304,
  manageComponent: 8388608,
} as const;
export type AclName = keyof typeof Acl;

/** Every bit a fleet membership can carry. */
export const ACL_ALL = 1 | 2 | 4 | 16 | 32 | 64 | 128 | 256 | 512 | 0x3fc00 | 0xfc0000;

/** The bits of spec §6 alone, before the workshop ones. */
export const ACL_SPEC = 1 | 2 | 4 | 16 | 32 | 64 | 128 | 256 | 512;

/**
 * The driver preset of the access list (docs/product.md "Workshop rights"): report issues, submit
 * inspections, add fuel fillings; the membership is then limited to the units assigned to the driver.
 */
export const ACL_DRIVER = 1024 | 16384 | 131072;

/** Vehicle types of spec §3, in order; the client appends `unknown` with id null. */
export const UNIT_TYPES = [
  'motorbike',
  'car',
  'pickup',
  'van',
  'microbus',
  'bus',
  'lorry',
  'refrigerator',
  'heavy_truck',
  'tipper',
  'tractor',
  'manipulator',
  'specialized_vehicle',
  'nonmoving',
  'other',
] as const;
export type UnitTypeName = (typeof UNIT_TYPES)[number];

/** Fuel volume units (spec §3). */
export const FuelMeasure = { liter: 1, gallon: 2 } as const;
/** Distance units (spec §3): 1 means miles, anything else km. */
export const MeasureSystem = { meters: 0, miles: 1 } as const;
export const KM_PER_MILE = 1.609344;

/** Line item kinds (spec §3). */
export const LineItemKind = { task: 1, part: 2, fuel: 4 } as const;

/** Limits of spec §9. */
export const Limits = {
  stringMax: 128,
  descriptionMax: 512,
  intSigned: 2147483647,
  intUnsigned: 4294967295,
  floatMax: 1e21,
  precision: 3,
  maxFileSize: 33554432,
} as const;

export const DAY_SECONDS = 86400;

/** Default user settings (spec §3, §9; DESIGN §6). */
export const DEFAULT_SETTINGS = {
  lang: 'en',
  notification: { enabled: ALL_NOTIFICATION_KINDS },
  dateFormat: 'DD.MM.YYYY',
  timeFormat: 'HH:mm',
  layer: 'osm',
} as const;

/** The 23 selectable languages (spec §1). */
export const LANGUAGES = [
  'ru',
  'en',
  'es',
  'ro',
  'nl',
  'pt-br',
  'bg',
  'et',
  'az',
  'hr',
  'fi',
  'fr',
  'tr',
  'pl',
  'hu',
  'de',
  'it',
  'sr',
  'cs',
  'el',
  'th',
  'uk',
  'lt',
] as const;
