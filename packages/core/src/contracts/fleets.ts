import { z } from 'zod';
import { ACL_ALL, Limits } from '../constants.js';
import { toThousandths } from '../decimal.js';
import {
  normalizeTags,
  normalizeVin,
  UNIT_TAG_MAX,
  UNIT_TAGS_MAX,
  vinIssue,
  vinRefused,
} from '../vehicle.js';
import { acceptingReadOnly, counter, flag, id, okReply } from './common.js';
import { customFieldValues, customFieldValuesWire } from './customfields.js';
import { METER_DAILY_DISTANCE_MAX_KM, METER_DAILY_DISTANCE_MIN_KM } from './meter.js';

/**
 * Wire contracts of the fleets API (spec §3 "Fleet", "Unit", "Driver and trailer"; spec §7 "Fleet";
 * DESIGN §3, §5): fleet settings, the access list, binding service objects, units, drivers, trailers
 * and pulled counters. See common.ts for the building blocks.
 */

/** Longest currency text of a fleet (`cur`). */
export const FLEET_CURRENCY_MAX = 16;
/** Range of a fleet's time-zone code (`tz`, offset and daylight-saving rule flags packed in one integer). */
export const FLEET_TZ_MIN = -2147483648;
export const FLEET_TZ_MAX = Limits.intSigned;
/** Most entries one access list (`PUT /api/fleets/{id}/users`) may carry. */
export const FLEET_USERS_MAX = 10_000;
/**
 * Largest acl a request may send: every bit of spec §6 and of the workshop (docs/product.md "Workshop
 * rights"); bits no right defines (8) are refused by the server by name.
 */
export const FLEET_ACL_MAX = ACL_ALL;
/** Most ids one binding or pull (`entities`, `pullcounters`) may list per kind. */
export const FLEET_OBJECT_IDS_MAX = 100_000;

// --- fleet ---

/** A fleet as `GET /api/fleets` and the authentication reply send it (spec §3 "Fleet"). */
export const fleetWire = z.object({
  id,
  n: z.string().describe('Name'),
  acl: z.number().int().describe('Permission bits of the caller on this fleet (spec §6)'),
  tz: z.number().int().describe('Time-zone code: offset and daylight-saving rule flags (spec §3)'),
  cur: z.string().describe('Currency text'),
  ms: z.number().int().describe('Measure system: 1 miles, otherwise km'),
  fm: z.number().int().describe('Fuel measure: 1 litres, 2 US gallons'),
  aid: id.describe('Owner account id'),
  mdd: z
    .number()
    .describe(
      'meterDailyDistanceMax: a reading recorded by hand that adds more km than this per day is voided automatically (docs/product.md "Meter integrity")',
    ),
  s: flag.describe('1 while the owner account (and every account above it) is active, 0 when suspended'),
});
export type FleetWire = z.infer<typeof fleetWire>;

export const fleetListReply = z.object({ fleets: z.array(fleetWire) });
export type FleetListReply = z.infer<typeof fleetListReply>;

/** The settings of a fleet (PRODUCT.md "Administration"), as one shape for create and update. */
const fleetSettingsFields = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  tz: z.number().int().min(FLEET_TZ_MIN).max(FLEET_TZ_MAX),
  cur: z.string().max(FLEET_CURRENCY_MAX),
  ms: flag,
  fm: z.union([z.literal(1), z.literal(2)]),
  mdd: z.number().min(METER_DAILY_DISTANCE_MIN_KM).max(METER_DAILY_DISTANCE_MAX_KM),
});
/** What a fleet admin may change (PRODUCT.md "Administration"). */
const fleetSettings = fleetSettingsFields.partial();

/**
 * Read-only fields of a fleet as read: accepted and ignored, so the fleet as GET returns it can be sent
 * back (spec §7 "generic store operations: update"). The owner account and the caller's acl are never
 * taken from a body.
 */
export const FLEET_READ_ONLY = ['id', 'acl', 's'] as const;
/** The owner account: a fleet does not move by an update (refused unless equal to the stored one). */
export const FLEET_FIXED = ['aid'] as const;
/** `PUT /api/fleets/{id}`: any of the settings; the fleet as read is accepted too. */
export const fleetUpdateBody = acceptingReadOnly(fleetSettings, FLEET_READ_ONLY, FLEET_FIXED);
export type FleetUpdateBody = z.output<typeof fleetUpdateBody>;

/** Settings of a new fleet a body leaves out: UTC, no currency, km, litres. */
export const FLEET_DEFAULTS = { tz: 0, cur: '', ms: 0, fm: 1 } as const;
/**
 * `POST /api/fleets`: the settings of `PUT /api/fleets/{id}` with the name required,
 * and the owner account (`aid`, default the caller's), which must lie within the caller's subtree.
 */
export const fleetCreateBody = fleetSettings.required({ n: true }).extend({
  aid: id.optional().describe("Owner account; the caller's own when left out"),
});
export type FleetCreateBody = z.output<typeof fleetCreateBody>;

// --- access list ---

export const fleetCandidateWire = z.object({
  id,
  nm: z.string().describe('Full name, else the login'),
  login: z.string().describe('User name'),
});
export const fleetMemberWire = fleetCandidateWire.extend({
  acl: z.number().int().describe('Permission bits on this fleet (spec §6)'),
  ao: flag.describe(
    'Assigned units only: 1 when the member reaches only the units assigned to them (docs/product.md "Vehicle assignments")',
  ),
});
export type FleetMemberWire = z.infer<typeof fleetMemberWire>;

/** `GET /api/fleets/{id}/users`: members, and the users of the fleet's accounts who could join. */
export const fleetUsersReply = z.object({
  users: z.array(fleetMemberWire),
  candidates: z.array(fleetCandidateWire),
});
export type FleetUsersReply = z.infer<typeof fleetUsersReply>;

/**
 * One entry of the access list: user id and acl. A member as read (`nm`, `login`) is accepted; nothing
 * else about the user (super user, account admin) can be set here.
 */
export const fleetUserEntry = acceptingReadOnly(
  z.object({
    id,
    acl: z.number().int().min(0).max(FLEET_ACL_MAX),
    ao: flag.default(0).describe('Assigned units only (the driver preset); 0 when left out'),
  }),
  ['nm', 'login'],
);
export type FleetUserEntry = z.output<typeof fleetUserEntry>;
/** `PUT /api/fleets/{id}/users`: the whole access list; acl dependencies of spec §6 are enforced. */
export const fleetUsersBody = z.object({ users: z.array(fleetUserEntry).max(FLEET_USERS_MAX) });

// --- service objects: binding ---

const objectIds = z.array(id).max(FLEET_OBJECT_IDS_MAX);

/** `PUT /api/fleets/{id}/entities`: per kind given, the objects of the fleet (others of that kind leave). */
export const fleetEntitiesBody = z.object({
  units: objectIds.optional(),
  drivers: objectIds.optional(),
  trailers: objectIds.optional(),
});
export type FleetEntitiesBody = z.infer<typeof fleetEntitiesBody>;
export const fleetEntitiesReply = okReply.extend({
  changed: z.number().int().min(0).describe('Objects that joined or left the fleet'),
});
export type FleetEntitiesReply = z.infer<typeof fleetEntitiesReply>;

/** `POST /api/fleets/{id}/pullcounters`: the units to pull; all units of the fleet when none given. */
export const fleetPullBody = z.object({ units: objectIds.optional() }).optional();

// --- units, drivers, trailers ---

/** Fuel types of a vehicle profile; '' when not given (docs/product.md "The vehicle profile"). */
export const VEHICLE_FUEL_TYPES = [
  'petrol',
  'diesel',
  'lpg',
  'cng',
  'electric',
  'hybrid',
  'hydrogen',
  'other',
] as const;
export type VehicleFuelType = (typeof VEHICLE_FUEL_TYPES)[number];
/** Longest make and model, plate; earliest and latest model year; largest tank. */
export const VEHICLE_TEXT_MAX = 64;
export const VEHICLE_PLATE_MAX = 32;
export const VEHICLE_YEAR_MIN = 1886;
export const VEHICLE_YEAR_MAX = 2100;
export const VEHICLE_TANK_MAX = 100_000;

/**
 * A unit's vehicle profile as read (docs/product.md "The vehicle profile"): VIN, make, model, model
 * year, plate, fuel type, tank capacity with its fuel unit, tags and notes. Texts are '' when not given.
 */
export const vehicleProfileWire = z.object({
  vin: z.string().describe('VIN, 17 characters, or empty'),
  mk: z.string().describe('Make'),
  md: z.string().describe('Model'),
  yr: z.number().int().nullable().describe('Model year'),
  pl: z.string().describe('Licence plate'),
  ft: z.union([z.literal(''), z.enum(VEHICLE_FUEL_TYPES)]).describe('Fuel type; empty when not given'),
  tc: z.number().nullable().describe('Tank capacity in the fuel unit tu'),
  tu: z
    .union([z.literal(1), z.literal(2)])
    .nullable()
    .describe('Fuel unit of tc: 1 litres, 2 US gallons'),
  tg: z.array(z.string()).describe('Tags'),
  nt: z.string().describe('Notes'),
});
export type VehicleProfileWire = z.infer<typeof vehicleProfileWire>;

/**
 * The vehicle profile of a unit's create or update: every field optional, only those given change.
 * A VIN of wrong length or characters is refused; a wrong check digit is accepted (a warning in the
 * browser: European VINs often carry none). The tank capacity is in `tu`, else the fleet's fuel unit.
 */
export const vehicleProfileBody = z
  .object({
    vin: z
      .string()
      .max(64)
      .transform(normalizeVin)
      .superRefine((v, ctx) => {
        const issue = vinIssue(v);
        if (vinRefused(issue))
          ctx.addIssue({
            code: 'custom',
            message:
              issue === 'chars'
                ? 'VIN characters are digits and capitals but I, O, Q'
                : 'A VIN has 17 characters',
          });
      }),
    mk: z.string().trim().max(VEHICLE_TEXT_MAX),
    md: z.string().trim().max(VEHICLE_TEXT_MAX),
    yr: z.number().int().min(VEHICLE_YEAR_MIN).max(VEHICLE_YEAR_MAX).nullable(),
    pl: z.string().trim().max(VEHICLE_PLATE_MAX),
    ft: z.union([z.literal(''), z.enum(VEHICLE_FUEL_TYPES)]),
    tc: z
      .number()
      .positive()
      .max(VEHICLE_TANK_MAX)
      .refine((v) => toThousandths(v) !== undefined, 'At most 3 decimals')
      .nullable(),
    tu: z.union([z.literal(1), z.literal(2)]).nullable(),
    tg: z.array(z.string().trim().max(UNIT_TAG_MAX)).max(UNIT_TAGS_MAX).transform(normalizeTags),
    nt: z.string().max(Limits.descriptionMax),
  })
  .partial();
export type VehicleProfileBody = z.output<typeof vehicleProfileBody>;

/** The unit photo: one image (docs/product.md "The vehicle profile"), within these caps. */
export const UNIT_PHOTO_BYTES_MAX = 5 * 1024 * 1024;
export const UNIT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

const unitParams = z.record(z.string(), z.unknown());

/** A unit (spec §3 "Unit"; DESIGN §3): counters go out in km and engine hours, whatever the fleet measures. */
export const unitWire = z.object({
  id,
  nm: z.string().describe('Name'),
  fid: id.nullable().describe('Fleet id; null outside any fleet'),
  uid: z.string().describe('Device identifier'),
  ut: id.nullable().describe('Unit type id; null when not selected'),
  cnm: z.number().describe('Current mileage, km'),
  cneh: z.number().describe('Current engine hours'),
  acnm: z.number().describe('Actual mileage, km: since joining the fleet, plus pulled history'),
  aceh: z.number().describe('Actual engine hours: since joining the fleet, plus pulled history'),
  prp: unitParams.describe('Properties'),
  prms: unitParams.describe('Parameters of the last message'),
  lmsg: z
    .object({ t: z.number().describe('Unix seconds'), p: unitParams.describe('Parameters') })
    .nullable()
    .describe('Last message; null before the first'),
  pos: z
    .object({
      t: z.number().describe('Unix seconds'),
      y: z.number().describe('Latitude'),
      x: z.number().describe('Longitude'),
      s: z.number().nullable().describe('Speed, km/h'),
      c: z.number().nullable().describe('Course, degrees'),
      z: z.number().nullable().describe('Altitude, metres'),
    })
    .nullable()
    .describe('Last position; null before the first'),
  cf: customFieldValuesWire,
  ins: z.number().int().describe('1 while a service of the unit is in progress (spec §4)'),
  vp: vehicleProfileWire.describe('Vehicle profile'),
  ph: id.nullable().describe('Attachment id of the unit photo; null when none'),
});
export type UnitWire = z.infer<typeof unitWire>;

export const unitListReply = z.object({ units: z.array(unitWire) });
export type UnitListReply = z.infer<typeof unitListReply>;

/**
 * Fields of a unit as read that a unit update ignores: the id, actual counters, telematics state and
 * the in-progress marker are the server's.
 */
export const UNIT_READ_ONLY = ['id', 'acnm', 'aceh', 'prp', 'prms', 'lmsg', 'pos', 'ins', 'ph'] as const;
/**
 * The unit's fleet (changed by the fleet's binding) and device identifier: stored, never changed by a
 * unit update, so refused unless equal to the stored values.
 */
export const UNIT_FIXED = ['fid', 'uid'] as const;
/** Longest device identifier of a unit (`uid`), as the telematics readers accept it. */
export const UNIT_DEVICE_ID_MAX = 128;
/** A device identifier: unique across the installation (PRODUCT.md "Service objects and counters"). */
export const deviceId = z.string().trim().min(1).max(UNIT_DEVICE_ID_MAX).describe('Device identifier');

/**
 * `PUT /api/fleets/{fid}/units/{id}`: name (fleet admins only), unit type, counter corrections (recorded),
 * custom fields; the unit as read is accepted too. Nothing to change is a no-op.
 */
export const unitUpdateBody = acceptingReadOnly(
  z
    .object({
      nm: z.string().trim().min(1).max(Limits.stringMax),
      ut: id.nullable(),
      cnm: counter.describe('Mileage, km'),
      cneh: counter.describe('Engine hours'),
      cf: customFieldValues,
      vp: vehicleProfileBody,
    })
    .partial(),
  UNIT_READ_ONLY,
  UNIT_FIXED,
);
export type UnitUpdateBody = z.output<typeof unitUpdateBody>;

/**
 * `POST /api/fleets/{id}/units`: a new unit of the fleet's account in the
 * fleet. A starting mileage or engine hours is recorded as a hand correction from 0 and is the unit's
 * counter at joining (its "actual" counters start at 0; PRODUCT.md "Service objects and counters").
 */
export const unitCreateBody = z.object({
  nm: z.string().trim().min(1).max(Limits.stringMax),
  uid: deviceId,
  ut: id.nullable().default(null),
  cnm: counter.optional().describe('Starting mileage, km'),
  cneh: counter.optional().describe('Starting engine hours'),
  vp: vehicleProfileBody.optional().describe('Vehicle profile'),
});
export type UnitCreateBody = z.output<typeof unitCreateBody>;

/**
 * `PUT /api/fleets/{fid}/units/{id}/device`: a new device identifier for a
 * unit whose tracker was replaced; unique across the installation (409). Kept apart from the unit's
 * update, which accepts the unit as read and so never changes its device.
 */
export const unitDeviceBody = z.object({ uid: deviceId });
export type UnitDeviceBody = z.output<typeof unitDeviceBody>;

/**
 * `DELETE` of a unit, driver or trailer: its interval assignments and open services go; its archived
 * services stay unless `archive=delete` (PRODUCT.md "Service objects and counters").
 */
export const objectDeleteQuery = z.object({
  archive: z.enum(['keep', 'delete']).default('keep').describe('delete: remove its archived services too'),
});
export type ObjectDeleteQuery = z.output<typeof objectDeleteQuery>;
export const objectDeleteReply = okReply.extend({
  services: z.number().int().min(0).describe('Services removed with the object'),
});
export type ObjectDeleteReply = z.infer<typeof objectDeleteReply>;

/** A driver or a trailer (spec §3 "Driver and trailer"). */
export const personWire = z.object({
  id,
  fid: id.nullable().describe('Owning fleet; null outside any fleet'),
  n: z.string().describe('Name'),
  ds: z.string().describe('Description'),
  c: z.string().describe('Contact'),
  cf: customFieldValuesWire,
  ins: z.number().int().describe('1 while a service of the object is in progress (spec §4)'),
});
export type PersonWire = z.infer<typeof personWire>;
export const driverListReply = z.object({ drivers: z.array(personWire) });
export const trailerListReply = z.object({ trailers: z.array(personWire) });

/** Fields of a driver or trailer as read that an update ignores. */
export const PERSON_READ_ONLY = ['id', 'ins'] as const;
/** A driver's or trailer's fleet: changed by the fleet's binding (`entities`), never by an update. */
export const PERSON_FIXED = ['fid'] as const;
/** `PUT /api/drivers/{id}`, `PUT /api/trailers/{id}`; the record as read is accepted too. */
export const personUpdateBody = acceptingReadOnly(
  z
    .object({
      n: z.string().trim().min(1).max(Limits.stringMax),
      ds: z.string().max(Limits.descriptionMax),
      c: z.string().max(Limits.stringMax),
      cf: customFieldValues,
    })
    .partial(),
  PERSON_READ_ONLY,
  PERSON_FIXED,
);
export type PersonUpdateBody = z.output<typeof personUpdateBody>;

/** `POST /api/fleets/{id}/drivers` and `/trailers`: a new one in the fleet. */
export const personCreateBody = z.object({
  n: z.string().trim().min(1).max(Limits.stringMax),
  c: z.string().max(Limits.stringMax).default(''),
  ds: z.string().max(Limits.descriptionMax).default(''),
});
export type PersonCreateBody = z.output<typeof personCreateBody>;
