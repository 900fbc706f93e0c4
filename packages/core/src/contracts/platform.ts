import { z } from 'zod';
import { id, unixTime } from './common.js';

/**
 * Wire contracts of the platform calls served by Fleetkeep itself (DESIGN §3; spec §7 "Session and
 * platform", "Map tiles"; spec §3 "Map-provider key record"), the client fault reports (spec §8) and the
 * liveness call. See common.ts.
 */

// --- map-provider keys ---

export const MAP_KEY_PROVIDER_MAX = 32;
export const MAP_KEY_MAX = 256;
/** Largest type mask: protected 1, routing 2, geocoding 4, optimization 8, tiles 16 (core `MapKeyBit`). */
export const MAP_KEY_TYPE_MAX = 31;

/** A map-provider key record (spec §3). */
export const mapKeyWire = z.object({
  id,
  provider: z.string(),
  key: z.string(),
  type: z.number().int().describe('Type bits: protected 1, routing 2, geocoding 4, optimization 8, tiles 16'),
});
export type MapKeyWire = z.infer<typeof mapKeyWire>;

/** `POST /api/remoteapi/user/get_keys` takes no payload (spec §7). */
export const platformKeysBody = z.object({}).optional();
/** Every key record keyed by its id (spec §7 `user/get_keys`). */
export const platformKeysReply = z.record(z.string(), mapKeyWire).describe('Key records keyed by id');
export type PlatformKeysReply = z.infer<typeof platformKeysReply>;

export const mapKeysReply = z.object({ map_keys: z.array(mapKeyWire) });
export type MapKeysReply = z.infer<typeof mapKeysReply>;
/** `POST /api/admin/map_keys` (super user). */
export const mapKeyCreateBody = z.object({
  provider: z.string().trim().min(1).max(MAP_KEY_PROVIDER_MAX),
  key: z.string().trim().min(1).max(MAP_KEY_MAX),
  type: z.number().int().min(0).max(MAP_KEY_TYPE_MAX),
});

// --- map tiles ---

/** `GET /api/gis/tiles/{z}/{x}/{y}`: `y` may end in `.png`; the grid is checked by the server. */
export const gisTileParams = z.object({ z: z.coerce.number(), x: z.coerce.number(), y: z.string() });
/** Tiles are `<img>` requests: the session comes as `sid` (spec §7 "Map tiles"). */
export const gisTileQuery = z.object({ sid: z.string().max(256).optional() });

// --- client fault reports (spec §8) ---

export const CLIENT_FAULT_KINDS = ['error', 'rejection', 'render', 'warning'] as const;
export type ClientFaultKind = (typeof CLIENT_FAULT_KINDS)[number];
export const CLIENT_FAULT_RELEASE_MAX = 32;
export const CLIENT_FAULT_MESSAGE_MAX = 2000;
export const CLIENT_FAULT_STACK_MAX = 8000;
export const CLIENT_FAULT_URL_MAX = 2000;

/** `POST /api/client_errors`: one fault of the web client. */
export const clientFaultBody = z.object({
  kind: z.enum(CLIENT_FAULT_KINDS),
  release: z.string().trim().min(1).max(CLIENT_FAULT_RELEASE_MAX),
  message: z.string().trim().min(1).max(CLIENT_FAULT_MESSAGE_MAX),
  stack: z.string().max(CLIENT_FAULT_STACK_MAX).optional(),
  url: z.string().max(CLIENT_FAULT_URL_MAX).optional(),
});
export type ClientFaultReport = z.infer<typeof clientFaultBody>;

/** A kept fault report, as super users read it. */
export const clientFaultWire = z.object({
  kind: z.enum(CLIENT_FAULT_KINDS),
  release: z.string(),
  message: z.string(),
  stack: z.string().optional(),
  url: z.string().optional(),
  tm: unixTime.describe('Arrival, Unix seconds'),
  userAgent: z.string(),
  user: z.string().nullable().describe('User name when the report carried a session'),
});
export type ClientFaultWire = z.infer<typeof clientFaultWire>;
export const clientFaultsReply = z.object({ faults: z.array(clientFaultWire) });

// --- liveness ---

export const pingReply = z.object({ ok: z.literal(true), release: z.string() });
