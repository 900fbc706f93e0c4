import { FLEET_TRANSFER_FORMAT, FLEET_TRANSFER_VERSION } from '@fleetkeep/core';
import { FLEET_ADMINS, outcomes, type RouteCase } from './matrix.js';

/**
 * Permission-matrix cases of the fleet export, import and LubeLogger migration (
 * spec §2 `/migration/{fleetId}` and §6: admin on that fleet only), spread into ROUTE_CASES of routes.ts.
 * The imports carry documents and files that hold no records, so an allowed call changes nothing.
 */

const EMPTY_DOCUMENT = {
  format: FLEET_TRANSFER_FORMAT,
  version: FLEET_TRANSFER_VERSION,
  exported_at: 0,
  fleet: { name: 'matrix', tz: 0, cur: 'EUR', ms: 0, fm: 1 },
};
const HEADER_ONLY = {
  files: [
    {
      name: 'service.csv',
      kind: 'service',
      vehicle: 'Matrix car',
      content: 'Date,Odometer,Description,Notes,Cost\n',
    },
  ],
  vehicles: [{ vehicle: 'Matrix car', create: 'Matrix car' }],
};

export const FLEET_TRANSFER_CASES: RouteCase[] = [
  {
    route: 'GET /api/fleets/:fid/export',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/export` }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'GET /api/fleets/:fid/export/:file',
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.fleetId}/export/services.csv` }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'POST /api/fleets/:fid/transfer',
    label: 'a document without records',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/transfer`,
      body: { document: EMPTY_DOCUMENT },
    }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'POST /api/fleets/:fid/transfer/lubelogger/parse',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/transfer/lubelogger/parse`,
      body: { files: HEADER_ONLY.files },
    }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'POST /api/fleets/:fid/transfer/lubelogger',
    label: 'files without records',
    build: ({ fx }) => ({
      method: 'POST',
      url: `/api/fleets/${fx.fleetId}/transfer/lubelogger`,
      body: HEADER_ONLY,
    }),
    expect: outcomes(FLEET_ADMINS),
  },
];
