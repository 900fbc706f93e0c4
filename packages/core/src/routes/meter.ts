import { fleetItemParams } from '../contracts/common.js';
import {
  meterAcceptBody,
  meterChangeReply,
  meterCorrectionBody,
  meterListQuery,
  meterListReply,
  meterReadingParams,
} from '../contracts/meter.js';
import { route } from './route.js';

/** A unit's meter history (PRODUCT.md "Service objects and counters"; core contracts/meter.ts). */

const tags = ['meter'];
const base = '/api/fleets/:fid/units/:id/meter';

export const meterRoutes = {
  list: route({
    method: 'GET',
    path: base,
    params: fleetItemParams,
    query: meterListQuery,
    reply: meterListReply,
    need: 'meter.view',
    summary: 'A unit’s meter history: kept readings (refused ones with the reason) and corrections',
    tags,
  }),
  correct: route({
    method: 'POST',
    path: base,
    params: fleetItemParams,
    body: meterCorrectionBody,
    reply: meterChangeReply,
    need: 'meter.manage',
    summary: 'A hand correction of the unit’s mileage and/or engine hours (recorded with who and when)',
    tags,
  }),
  accept: route({
    method: 'POST',
    path: `${base}/:readingId/accept`,
    params: meterReadingParams,
    body: meterAcceptBody,
    reply: meterChangeReply,
    need: 'meter.manage',
    summary: 'Accepts a refused reading; the newest becomes the unit’s counters',
    tags,
  }),
};
