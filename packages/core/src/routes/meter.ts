import { fleetItemParams } from '../contracts/common.js';
import {
  meterAcceptBody,
  meterChangeReply,
  meterCorrectionBody,
  meterListQuery,
  meterListReply,
  meterReadingBody,
  meterReadingParams,
  meterReplacedBody,
  meterRestoreBody,
  meterVoidBody,
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
  void: route({
    method: 'POST',
    path: `${base}/:readingId/void`,
    params: meterReadingParams,
    body: meterVoidBody,
    reply: meterChangeReply,
    need: 'meter.manage',
    summary: 'Voids a reading with a reason: kept in the history, counted for nothing; the counters follow',
    tags,
  }),
  restore: route({
    method: 'POST',
    path: `${base}/:readingId/restore`,
    params: meterReadingParams,
    body: meterRestoreBody,
    reply: meterChangeReply,
    need: 'meter.manage',
    summary: 'Restores a voided reading; the counters follow',
    tags,
  }),
  record: route({
    method: 'POST',
    path: `${base}/readings`,
    params: fleetItemParams,
    body: meterReadingBody,
    reply: meterChangeReply,
    need: 'meter.manage',
    summary: 'Records a reading by hand (source manual), through the same counter rules as a device’s',
    tags,
  }),
  replaced: route({
    method: 'POST',
    path: `${base}/replaced`,
    params: fleetItemParams,
    body: meterReplacedBody,
    reply: meterChangeReply,
    need: 'meter.manage',
    summary: 'The meter (dashboard or tracker) was replaced: the next reading starts a new scale',
    tags,
  }),
};
