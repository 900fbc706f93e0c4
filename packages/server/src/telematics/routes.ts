import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/auth-hook.js';
import { zApp } from '../http/types.js';
import { ingestBatchAs, ingestOsmand, osmandInput } from './service.js';

export const BATCH_MAX_ROWS = 10_000;
/** A full batch is larger than the default body limit. */
const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

/** The OsmAnd fields of DESIGN §3, described for the API document; the parser checks them. */
const FIELDS = {
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

const fields = <T extends z.ZodType>(type: T) =>
  Object.fromEntries(Object.entries(FIELDS).map(([k, d]) => [k, type.optional().describe(d)])) as Record<
    keyof typeof FIELDS,
    z.ZodOptional<T>
  >;

const osmandQuery = z
  .looseObject(fields(z.string()))
  .describe('Other parameters are kept as unit parameters');
const flatRow = z.looseObject(fields(z.unknown()));
const traccarJson = z.looseObject({
  device_id: z.string().describe('Device identifier of the unit'),
  location: z
    .looseObject({})
    .describe(
      'Newer Traccar Client: {timestamp (ISO), coords: {latitude, longitude, speed (m/s), heading, altitude, accuracy}, is_moving, odometer (m), battery: {level, is_charging}}',
    ),
});

const tags = ['telematics'];

/** Telematics ingestion under /api (DESIGN §3); the OsmAnd port serves the same service. */
export const ingestRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);

    app.get(
      '/api/ingest/osmand',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'OsmAnd / Traccar Client reading (GET query); authenticated by the device identifier',
          security: [],
          querystring: osmandQuery,
        },
      },
      async (req) => ingestOsmand(ctx, osmandInput(req.query, undefined)),
    );
    app.post(
      '/api/ingest/osmand',
      {
        config: { public: true },
        schema: {
          tags,
          summary:
            'OsmAnd / Traccar Client reading (form, or JSON body); authenticated by the device identifier',
          security: [],
          querystring: osmandQuery,
          body: z.union([traccarJson, flatRow, z.string()]).optional(),
        },
      },
      async (req) => ingestOsmand(ctx, osmandInput(req.query, req.body)),
    );
    app.post(
      '/api/ingest/batch',
      {
        config: { need: 'telematics.ingest', fleetFrom: { body: true } },
        bodyLimit: BATCH_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Readings of many units in order (admin rights on each unit’s fleet); per-row results',
          body: z.object({ positions: z.array(z.union([traccarJson, flatRow])).max(BATCH_MAX_ROWS) }),
        },
      },
      async (req) => ingestBatchAs(ctx, actorOf(req), req.body.positions),
    );
  };
