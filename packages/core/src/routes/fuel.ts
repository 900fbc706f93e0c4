import { fleetItemParams, fleetParams } from '../contracts/common.js';
import {
  fuelAttachmentDeleteReply,
  fuelAttachmentListReply,
  fuelAttachmentParams,
  fuelFillingCreateBody,
  fuelFillingDeleteReply,
  fuelFillingImportBody,
  fuelFillingListQuery,
  fuelFillingListReply,
  fuelFillingUpdateBody,
  fuelFillingWire,
} from '../contracts/fuel.js';
import { route } from './route.js';

/** The fuel fillings API of spec §7 "Fuel fillings" (PRODUCT.md "Fuel fillings"). */

const tags = ['fuel fillings'];
const base = '/api/fleets/:fid/fuel-fillings';
const period = 'from/to: YYYY-MM-DD or Unix seconds, whole fleet days, ≤ 366 days';

export const fuelRoutes = {
  list: route({
    method: 'GET',
    path: base,
    params: fleetParams,
    query: fuelFillingListQuery,
    reply: fuelFillingListReply,
    need: 'fuel.view',
    summary: `Fuel fillings of a period, by time (${period})`,
    tags,
  }),
  listOfUnit: route({
    method: 'GET',
    path: '/api/fleets/:fid/units/:id/fuel-fillings',
    params: fleetItemParams,
    query: fuelFillingListQuery,
    reply: fuelFillingListReply,
    need: 'fuel.view',
    summary: `Fuel fillings of one unit in a period, by time (${period})`,
    tags,
  }),
  create: route({
    method: 'POST',
    path: base,
    params: fleetParams,
    body: fuelFillingCreateBody,
    reply: fuelFillingWire,
    // Managing fillings, or a driver's add-only right (core needs.ts).
    need: 'fuel.add',
    summary: 'Record a fuel filling of a unit (volume and price in the fleet fuel unit)',
    tags,
  }),
  createMany: route({
    method: 'POST',
    path: `${base}/batch`,
    params: fleetParams,
    body: fuelFillingImportBody,
    reply: fuelFillingListReply,
    need: 'fuel.manage',
    summary: 'Import fuel fillings (atomic, per-row errors)',
    tags,
  }),
  get: route({
    method: 'GET',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: fuelFillingWire,
    need: 'fuel.view',
    summary: 'One fuel filling',
    tags,
  }),
  update: route({
    method: 'PUT',
    path: `${base}/:id`,
    params: fleetItemParams,
    body: fuelFillingUpdateBody,
    reply: fuelFillingWire,
    need: 'fuel.manage',
    summary: 'Update a fuel filling; the record as read is accepted',
    tags,
  }),
  remove: route({
    method: 'DELETE',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: fuelFillingDeleteReply,
    need: 'fuel.delete',
    summary: 'Delete a fuel filling and its attachments (deleteFuelfilling)',
    tags,
  }),
  attachments: route({
    method: 'GET',
    path: `${base}/:id/attachments`,
    params: fleetItemParams,
    reply: fuelAttachmentListReply,
    need: 'fuel.view',
    summary: 'Attachments of a fuel filling',
    tags,
  }),
  attachmentUpload: route({
    method: 'POST',
    path: `${base}/:id/attachments`,
    params: fleetItemParams,
    body: 'multipart',
    reply: fuelAttachmentListReply,
    need: 'fuel.manage',
    summary: 'Upload files (multipart/form-data): at most 20 files and 32 MB per fuel filling (error 2)',
    tags,
  }),
  attachmentDownload: route({
    method: 'GET',
    path: `${base}/:id/attachments/:aid`,
    params: fuelAttachmentParams,
    reply: 'file',
    need: 'fuel.view',
    summary: 'Download an attachment with its original name',
    tags,
  }),
  attachmentRemove: route({
    method: 'DELETE',
    path: `${base}/:id/attachments/:aid`,
    params: fuelAttachmentParams,
    reply: fuelAttachmentDeleteReply,
    need: 'fuel.manage',
    summary: 'Delete an attachment',
    tags,
  }),
};
