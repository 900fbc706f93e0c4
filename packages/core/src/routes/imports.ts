import { fleetParams } from '../contracts/common.js';
import {
  type ImportKind,
  importFileBody,
  importFleetParams,
  importParseQuery,
  importParseReply,
  importResultReply,
  importRowsBody,
  intervalImportListReply,
  intervalImportReply,
} from '../contracts/imports.js';
import { intervalImportBody } from '../contracts/intervals.js';
import { route } from './route.js';

/**
 * The import flow (spec §2 `/…/import`, §5, §7 `GET/POST /fleets/{id}/import`). Per
 * kind, with the kind's need: `…/import/{kind}/parse` (the file's bytes as application/octet-stream →
 * text cells) and `…/import/{kind}` (mapped text rows → checked again and written, all or none).
 */

const tags = ['imports'];
const fileBytes = ['application/octet-stream'] as const;
const parseSummary = (kind: ImportKind) =>
  `Read a CSV or XLSX file (raw bytes, application/octet-stream) into text cells for the ${kind} import`;
const rowsSummary = (kind: ImportKind) =>
  `Import mapped ${kind} rows; checked by the preview's rules; all rows or none`;

export const importsRoutes = {
  intervalRows: route({
    method: 'GET',
    path: '/api/fleets/:id/import',
    params: importFleetParams,
    reply: intervalImportListReply,
    need: 'interval.manage',
    summary: "The fleet's intervals as interval import rows (spec §7)",
    tags,
  }),
  intervalImport: route({
    method: 'POST',
    path: '/api/fleets/:id/import',
    params: importFleetParams,
    body: intervalImportBody,
    reply: intervalImportReply,
    need: 'interval.manage',
    summary: 'Import intervals; all rows or none; answers the imported intervals (spec §7)',
    tags,
  }),
  parseIntervals: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/intervals/parse',
    params: fleetParams,
    query: importParseQuery,
    body: importFileBody,
    consumes: fileBytes,
    reply: importParseReply,
    need: 'interval.manage',
    summary: parseSummary('intervals'),
    tags,
  }),
  importIntervals: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/intervals',
    params: fleetParams,
    body: importRowsBody,
    reply: importResultReply,
    need: 'interval.manage',
    summary: rowsSummary('intervals'),
    tags,
  }),
  parseServices: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/services/parse',
    params: fleetParams,
    query: importParseQuery,
    body: importFileBody,
    consumes: fileBytes,
    reply: importParseReply,
    need: 'service.manage',
    summary: parseSummary('services'),
    tags,
  }),
  importServices: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/services',
    params: fleetParams,
    body: importRowsBody,
    reply: importResultReply,
    need: 'service.manage',
    summary: rowsSummary('services'),
    tags,
  }),
  parseFuelfillings: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/fuelfillings/parse',
    params: fleetParams,
    query: importParseQuery,
    body: importFileBody,
    consumes: fileBytes,
    reply: importParseReply,
    need: 'fuel.manage',
    summary: parseSummary('fuelfillings'),
    tags,
  }),
  importFuelfillings: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/fuelfillings',
    params: fleetParams,
    body: importRowsBody,
    reply: importResultReply,
    need: 'fuel.manage',
    summary: rowsSummary('fuelfillings'),
    tags,
  }),
  parseLineitems: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/lineitems/parse',
    params: fleetParams,
    query: importParseQuery,
    body: importFileBody,
    consumes: fileBytes,
    reply: importParseReply,
    need: 'lineitem.manage',
    summary: parseSummary('lineitems'),
    tags,
  }),
  importLineitems: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/lineitems',
    params: fleetParams,
    body: importRowsBody,
    reply: importResultReply,
    need: 'lineitem.manage',
    summary: rowsSummary('lineitems'),
    tags,
  }),
  // The units of the service objects list: the need of creating a unit (routes/fleets.ts createUnit).
  parseUnits: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/units/parse',
    params: fleetParams,
    query: importParseQuery,
    body: importFileBody,
    consumes: fileBytes,
    reply: importParseReply,
    need: 'fleet.admin',
    summary: parseSummary('units'),
    tags,
  }),
  importUnits: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/units',
    params: fleetParams,
    body: importRowsBody,
    reply: importResultReply,
    need: 'fleet.admin',
    summary: `${rowsSummary('units')}; a device identifier in use refuses its row (409)`,
    tags,
  }),
  // Issues of units and trailers (docs/product.md "Issues"): history of the fleet, so managing issues.
  parseIssues: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/issues/parse',
    params: fleetParams,
    query: importParseQuery,
    body: importFileBody,
    consumes: fileBytes,
    reply: importParseReply,
    need: 'issue.manage',
    summary: parseSummary('issues'),
    tags,
  }),
  importIssues: route({
    method: 'POST',
    path: '/api/fleets/:fid/import/issues',
    params: fleetParams,
    body: importRowsBody,
    reply: importResultReply,
    need: 'issue.manage',
    summary: rowsSummary('issues'),
    tags,
  }),
};

/** Each import kind's two calls: the file's parse and the mapped rows' import. */
export const importRoutesOfKind = {
  intervals: { parse: importsRoutes.parseIntervals, rows: importsRoutes.importIntervals },
  services: { parse: importsRoutes.parseServices, rows: importsRoutes.importServices },
  fuelfillings: { parse: importsRoutes.parseFuelfillings, rows: importsRoutes.importFuelfillings },
  lineitems: { parse: importsRoutes.parseLineitems, rows: importsRoutes.importLineitems },
  units: { parse: importsRoutes.parseUnits, rows: importsRoutes.importUnits },
  issues: { parse: importsRoutes.parseIssues, rows: importsRoutes.importIssues },
} as const satisfies Record<ImportKind, { parse: unknown; rows: unknown }>;
