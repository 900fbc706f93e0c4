import { idParams, okReply } from '../contracts/common.js';
import {
  gisTileParams,
  gisTileQuery,
  mapKeyCreateBody,
  mapKeysReply,
  mapKeyWire,
  platformKeysBody,
  platformKeysReply,
} from '../contracts/platform.js';
import { teltonikaIoMapping, unitTypeAdminWire, unitTypesAdminReply } from '../contracts/telematics.js';
import { route } from './route.js';

/** The platform's remote calls of spec §7 served by Fleetkeep itself (DESIGN §3), and its map keys. */

export const platformRoutes = {
  keys: route({
    method: 'POST',
    path: '/api/remoteapi/user/get_keys',
    body: platformKeysBody,
    reply: platformKeysReply,
    need: 'user.self',
    summary: 'Map-provider key records keyed by id (spec §7); no payload',
    tags: ['platform'],
  }),
  mapKeys: route({
    method: 'GET',
    path: '/api/admin/map_keys',
    reply: mapKeysReply,
    need: 'platform.su',
    summary: 'Map-provider keys (super user)',
    tags: ['admin'],
  }),
  mapKeyCreate: route({
    method: 'POST',
    path: '/api/admin/map_keys',
    body: mapKeyCreateBody,
    reply: mapKeyWire,
    need: 'platform.su',
    summary:
      'Add a map-provider key (super user); type bits: protected 1, routing 2, geocoding 4, optimization 8, tiles 16',
    tags: ['admin'],
  }),
  /** Unit types are the platform's (one list for every fleet): their Teltonika IO mapping (DESIGN §3). */
  unitTypes: route({
    method: 'GET',
    path: '/api/admin/unit_types',
    reply: unitTypesAdminReply,
    need: 'platform.su',
    summary: 'Unit types with their Teltonika IO mapping (super user)',
    tags: ['admin'],
  }),
  unitTypeTeltonika: route({
    method: 'PUT',
    path: '/api/admin/unit_types/:id/teltonika',
    params: idParams,
    body: teltonikaIoMapping,
    reply: unitTypeAdminWire,
    need: 'platform.su',
    summary:
      'Set the IO ids a unit type’s Teltonika trackers report mileage (m or km) and engine hours (s or h) in (super user)',
    tags: ['admin'],
  }),
  mapKeyRemove: route({
    method: 'DELETE',
    path: '/api/admin/map_keys/:id',
    params: idParams,
    reply: okReply,
    need: 'platform.su',
    summary: 'Delete a map-provider key (super user)',
    tags: ['admin'],
  }),
  /**
   * Map tiles are <img> requests that cannot carry a header: the session comes as `sid` (spec §7 "Map
   * tiles": built from the gis url and session id), so the route is public and checks it itself. 502
   * `{error, reason}` when the tile server fails.
   */
  tile: route({
    method: 'GET',
    path: '/api/gis/tiles/:z/:x/:y',
    params: gisTileParams,
    query: gisTileQuery,
    reply: 'file',
    need: 'public',
    summary: 'A tile of the platform tile layer (GIS_URL), proxied and cached',
    tags: ['platform'],
  }),
};
