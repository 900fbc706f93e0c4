import { fleetParams, idParams } from '../contracts/common.js';
import {
  customFieldBody,
  customFieldDeleteQuery,
  customFieldDeleteReply,
  customFieldListReply,
  customFieldUpdateBody,
  customFieldWire,
} from '../contracts/customfields.js';
import { route } from './route.js';

/**
 * Custom field definitions (spec §7 "Custom fields"; PRODUCT.md "Administration"). The routes by field
 * id find their fleet from the field (the server's `fleetFrom`).
 */

const tags = ['custom fields'];

export const customfieldsRoutes = {
  list: route({
    method: 'GET',
    path: '/api/fleets/:fid/custom-fields',
    params: fleetParams,
    reply: customFieldListReply,
    need: 'fleet.member',
    summary: 'The fleet’s custom fields as {custom_fields}, sorted by name',
    tags,
  }),
  create: route({
    method: 'POST',
    path: '/api/fleets/:fid/custom-fields',
    params: fleetParams,
    body: customFieldBody,
    reply: customFieldWire,
    need: 'fleet.admin',
    summary: 'Define a custom field (admin): type 1 text or 2 list with s.options; owner u/d/t/s/f',
    tags,
  }),
  get: route({
    method: 'GET',
    path: '/api/custom-fields/:id',
    params: idParams,
    reply: customFieldWire,
    need: 'fleet.member',
    summary: 'One custom field',
    tags,
  }),
  update: route({
    method: 'PUT',
    path: '/api/custom-fields/:id',
    params: idParams,
    body: customFieldUpdateBody,
    reply: customFieldWire,
    need: 'fleet.admin',
    summary:
      'Change a custom field’s name, type or options (admin); the owner type stays; the field as read is accepted',
    tags,
  }),
  remove: route({
    method: 'DELETE',
    path: '/api/custom-fields/:id',
    params: idParams,
    query: customFieldDeleteQuery,
    reply: customFieldDeleteReply,
    need: 'fleet.admin',
    summary: 'Delete a custom field (admin); safe=1 (default) refuses while values exist',
    tags,
  }),
};
