import { fleetItemParams, fleetParams } from '../contracts/common.js';
import {
  criticalFaultCodesBody,
  criticalFaultCodesReply,
  faultCodeClearBody,
  faultCodeClearReply,
  faultCodeListReply,
  faultCodeParams,
} from '../contracts/fault-codes.js';
import { route } from './route.js';

/** A unit's diagnostic trouble codes (core contracts/fault-codes.ts). */

const tags = ['fault codes'];
const base = '/api/fleets/:fid/units/:id/fault-codes';

export const faultCodeRoutes = {
  list: route({
    method: 'GET',
    path: base,
    params: fleetItemParams,
    reply: faultCodeListReply,
    need: 'faultcode.view',
    summary: 'A unit’s fault codes (DTC): first and last seen, count, cleared',
    tags,
  }),
  clear: route({
    method: 'POST',
    path: `${base}/:codeId/clear`,
    params: faultCodeParams,
    body: faultCodeClearBody,
    reply: faultCodeClearReply,
    need: 'faultcode.manage',
    summary: 'Clears a fault code; seen again after that, it is active again',
    tags,
  }),
  critical: route({
    method: 'GET',
    path: '/api/fleets/:fid/critical-fault-codes',
    params: fleetParams,
    reply: criticalFaultCodesReply,
    need: 'faultcode.view',
    summary: 'The fleet’s critical fault codes (codes or prefixes)',
    tags,
  }),
  setCritical: route({
    method: 'PUT',
    path: '/api/fleets/:fid/critical-fault-codes',
    params: fleetParams,
    body: criticalFaultCodesBody,
    reply: criticalFaultCodesReply,
    need: 'fleet.admin',
    summary:
      'Sets the fleet’s critical fault codes (codes or prefixes); a critical code notifies when it opens',
    tags,
  }),
};
