import {
  REPORT_TYPES,
  reportExportQuery,
  reportParams,
  reportQuery,
  reportReply,
} from '../contracts/reports.js';
import { route } from './route.js';

/** The reports of PRODUCT.md "Reports" (spec §2 /reports; core contracts/reports.ts). */

const tags = ['reports'];
const types = REPORT_TYPES.join(', ');

export const reportsRoutes = {
  get: route({
    method: 'GET',
    path: '/api/fleets/:fid/reports/:type',
    params: reportParams,
    query: reportQuery,
    reply: reportReply,
    need: 'report.view',
    summary: `A report (${types}) of a period: columns, rows, totals and chart; core units (km, fleet fuel unit)`,
    tags,
  }),
  export: route({
    method: 'GET',
    path: '/api/fleets/:fid/reports/:type/export',
    params: reportParams,
    query: reportExportQuery,
    reply: 'file',
    need: 'report.view',
    summary:
      'A report as a file (xlsx, csv or pdf) in the caller’s language and formats, distances in the fleet’s unit',
    tags,
  }),
};
