import { fleetParams } from '../contracts/common.js';
import {
  fleetTransferBody,
  fleetTransferCsvParams,
  fleetTransferReply,
} from '../contracts/fleet-transfer.js';
import {
  lubeLoggerCommitBody,
  lubeLoggerCommitReply,
  lubeLoggerParseBody,
  lubeLoggerParseReply,
} from '../contracts/lubelogger.js';
import { route } from './route.js';

/**
 * Fleet export and import, and the LubeLogger migration (spec §2 `/migration/{fleetId}`: admin on that
 * fleet only, §6). Every route needs `fleet.admin` on the fleet of the path: the source of an export,
 * the target of an import.
 */

const tags = ['migration'];
const base = '/api/fleets/:fid';

export const fleetTransferRoutes = {
  exportDocument: route({
    method: 'GET',
    path: `${base}/export`,
    params: fleetParams,
    reply: 'file',
    need: 'fleet.admin',
    summary:
      'The whole fleet as one JSON document, streamed (objects, intervals, assignments, services, archive, fuel fillings, library, custom fields, attachments in base64, meter history, notification set-ups without secrets)',
    tags,
  }),
  exportCsv: route({
    method: 'GET',
    path: `${base}/export/:file`,
    params: fleetTransferCsvParams,
    reply: 'file',
    need: 'fleet.admin',
    summary: 'One collection of the fleet export as CSV (core csv.ts: formula cells neutralised)',
    tags,
  }),
  importDocument: route({
    method: 'POST',
    path: `${base}/transfer`,
    params: fleetParams,
    body: fleetTransferBody,
    reply: fleetTransferReply,
    need: 'fleet.admin',
    summary: 'Import a fleet export document into this fleet (atomic, ids remapped)',
    tags,
  }),
  lubeLoggerParse: route({
    method: 'POST',
    path: `${base}/transfer/lubelogger/parse`,
    params: fleetParams,
    body: lubeLoggerParseBody,
    reply: lubeLoggerParseReply,
    need: 'fleet.admin',
    summary: 'Preview LubeLogger CSV exports: rows mapped to services, fuel fillings and counters; vehicles',
    tags,
  }),
  lubeLoggerCommit: route({
    method: 'POST',
    path: `${base}/transfer/lubelogger`,
    params: fleetParams,
    body: lubeLoggerCommitBody,
    reply: lubeLoggerCommitReply,
    need: 'fleet.admin',
    summary: 'Import LubeLogger CSV exports with a vehicle → unit mapping (atomic)',
    tags,
  }),
};
