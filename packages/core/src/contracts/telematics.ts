import { z } from 'zod';

/**
 * Wire contracts of telematics ingestion under /api (DESIGN §3): the OsmAnd protocol of Traccar Client
 * and many trackers, and the JSON batch of gateways. The fields are only described here; the server's
 * parser checks them, and other parameters are kept as unit parameters.
 */

/** Most readings one batch may carry. */
export const TELEMATICS_BATCH_MAX_ROWS = 10_000;

/** The OsmAnd fields of DESIGN §3. */
export const OSMAND_FIELDS = {
  id: 'Device identifier of the unit',
  deviceid: 'Device identifier (alternative name)',
  timestamp: 'Unix seconds, milliseconds (above 2^31) or ISO 8601; now when missing',
  lat: 'Latitude, -90…90',
  lon: 'Longitude, -180…180',
  location: '"lat,lon" instead of lat and lon',
  speed: 'Speed in knots',
  bearing: 'Course in degrees',
  heading: 'Course in degrees (alternative name)',
  altitude: 'Altitude in metres',
  accuracy: 'Accuracy in metres (kept as a unit parameter)',
  batt: 'Battery level in % (kept as a unit parameter)',
  ignition: 'true or false',
  odometer: 'Total odometer in metres',
  hours: 'Total engine hours, decimal',
} as const;

const described = <T extends z.ZodType>(type: T) =>
  Object.fromEntries(
    Object.entries(OSMAND_FIELDS).map(([k, d]) => [k, type.optional().describe(d)]),
  ) as Record<keyof typeof OSMAND_FIELDS, z.ZodOptional<T>>;

/** The GET query (and the query of a POST): text fields. */
export const osmandQuery = z
  .looseObject(described(z.string()))
  .describe('Other parameters are kept as unit parameters');
/** One flat reading (form or JSON): the fields may come as text or numbers. */
const flatReading = z.looseObject(described(z.unknown()));
/** The JSON body of newer Traccar Client versions. */
const traccarReading = z.looseObject({
  device_id: z.string().describe('Device identifier of the unit'),
  location: z
    .looseObject({})
    .describe(
      'Newer Traccar Client: {timestamp (ISO), coords: {latitude, longitude, speed (m/s), heading, altitude, accuracy}, is_moving, odometer (m), battery: {level, is_charging}}',
    ),
});
/** `POST /api/ingest/osmand`: a Traccar Client JSON body, a flat JSON reading, or form text. */
export const osmandBody = z.union([traccarReading, flatReading, z.string()]).optional();

/** What a device gets back, for a stored and for a refused-but-logged reading alike. */
export const osmandReply = z.object({
  ok: z.boolean().describe('true when the reading was stored'),
  reason: z.string().optional().describe('Why a reading was refused'),
});
export type OsmandReply = z.infer<typeof osmandReply>;

/**
 * `POST /api/ingest/traccar`: a Traccar server's position forwarding (`forward.type=json`), one position
 * per request. Only the fields read are described; Traccar sends more, and the parser checks them.
 */
export const traccarForwardBody = z.looseObject({
  position: z
    .looseObject({
      fixTime: z.unknown().optional().describe('ISO 8601; the time of the reading'),
      deviceTime: z.unknown().optional().describe('ISO 8601; the time when there is no fixTime'),
      latitude: z.unknown().optional().describe('Latitude, -90…90'),
      longitude: z.unknown().optional().describe('Longitude, -180…180'),
      speed: z.unknown().optional().describe('Speed in knots'),
      course: z.unknown().optional().describe('Course in degrees'),
      altitude: z.unknown().optional().describe('Altitude in metres'),
      attributes: z
        .looseObject({})
        .optional()
        .describe(
          'odometer (m; else totalDistance, m), hours (engine hours in ms), ignition, dtcs (fault codes separated by spaces or commas); the others are kept as unit parameters',
        ),
    })
    .describe('Traccar position'),
  device: z
    .looseObject({ uniqueId: z.unknown().optional().describe('Device identifier of the unit') })
    .describe('Traccar device'),
});

/** What Traccar gets back for a stored and for a refused-but-logged position alike. */
export const traccarForwardReply = osmandReply;

/** `POST /api/ingest/batch`: readings of many units, in order. */
export const telematicsBatchBody = z.object({
  positions: z.array(z.union([traccarReading, flatReading])).max(TELEMATICS_BATCH_MAX_ROWS),
});
export const telematicsBatchRow = z.object({
  i: z.number().int().min(0).describe('Index of the row in positions'),
  ok: z.boolean(),
  reason: z.string().optional().describe('Why the row was refused'),
});
export type TelematicsBatchRow = z.infer<typeof telematicsBatchRow>;
export const telematicsBatchReply = z.object({ results: z.array(telematicsBatchRow) });
export type TelematicsBatchReply = z.infer<typeof telematicsBatchReply>;

/** Teltonika IO element ids are two bytes (Codec 8 Extended). */
export const TELTONIKA_IO_ID_MAX = 65_535;
const teltonikaIoId = z.number().int().min(1).max(TELTONIKA_IO_ID_MAX);

/**
 * A unit type's Teltonika IO mapping (DESIGN §3, Teltonika port): the IO id that carries the total
 * mileage (metres or km; instead of IO 16, e.g. CAN mileage) and the one that carries the total engine
 * hours (seconds or hours; instead of hours from the ignition, e.g. engine worktime). Either may be null.
 */
export const teltonikaIoMapping = z.object({
  mileage: z.object({ id: teltonikaIoId, unit: z.enum(['m', 'km']) }).nullable(),
  hours: z.object({ id: teltonikaIoId, unit: z.enum(['s', 'h']) }).nullable(),
});
export type TeltonikaIoMapping = z.infer<typeof teltonikaIoMapping>;

/** A unit type with its Teltonika IO mapping, as super users edit it (`GET /api/admin/unit_types`). */
export const unitTypeAdminWire = z.object({
  id: z.number().int(),
  n: z.string().describe('Name (the web translates the built-in ones)'),
  tio: teltonikaIoMapping.describe('Teltonika IO mapping; both null when unset'),
});
export type UnitTypeAdminWire = z.infer<typeof unitTypeAdminWire>;
export const unitTypesAdminReply = z.object({ unit_types: z.array(unitTypeAdminWire) });
export type UnitTypesAdminReply = z.infer<typeof unitTypesAdminReply>;
