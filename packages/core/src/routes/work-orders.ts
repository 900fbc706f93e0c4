import { fleetItemParams, fleetParams } from '../contracts/common.js';
import {
  workOrderActionBody,
  workOrderAssigneesReply,
  workOrderCompleteBody,
  workOrderCreateBody,
  workOrderDeleteReply,
  workOrderListQuery,
  workOrderListReply,
  workOrderUpdateBody,
  workOrderWire,
} from '../contracts/work-orders.js';
import { route } from './route.js';

/** The work-orders API (docs/product.md "Work orders"; core contracts/work-orders.ts, rules in work-orders.ts). */

const tags = ['work-orders'];
const base = '/api/fleets/:fid/work-orders';

export const workOrdersRoutes = {
  list: route({
    method: 'GET',
    path: base,
    params: fleetParams,
    query: workOrderListQuery,
    reply: workOrderListReply,
    need: 'workorder.view',
    summary: 'Work orders of the fleet: filters by status, object, assignee, overdue; sorted, paged',
    tags,
  }),
  assignees: route({
    method: 'GET',
    path: `${base}/assignees`,
    params: fleetParams,
    reply: workOrderAssigneesReply,
    need: 'workorder.manage',
    summary: 'The members of the fleet a work order may be assigned to',
    tags,
  }),
  create: route({
    method: 'POST',
    path: base,
    params: fleetParams,
    body: workOrderCreateBody,
    reply: workOrderWire,
    need: 'workorder.manage',
    summary: 'Make a work order of a unit or trailer, with its open issues and due services',
    tags,
  }),
  get: route({
    method: 'GET',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: workOrderWire,
    need: 'workorder.view',
    summary: 'One work order',
    tags,
  }),
  update: route({
    method: 'PUT',
    path: `${base}/:id`,
    params: fleetItemParams,
    body: workOrderUpdateBody,
    reply: workOrderWire,
    need: 'workorder.manage',
    summary: 'Update an unfinished work order (links, line items, assignee, schedule); as read is accepted',
    tags,
  }),
  remove: route({
    method: 'DELETE',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: workOrderDeleteReply,
    need: 'workorder.manage',
    summary: 'Delete a work order that is not completed; its issues go back to open',
    tags,
  }),
  start: route({
    method: 'POST',
    path: `${base}/:id/start`,
    params: fleetItemParams,
    body: workOrderActionBody,
    reply: workOrderWire,
    need: 'workorder.manage',
    summary: 'Start an open or on-hold work order (sets the actual start once)',
    tags,
  }),
  hold: route({
    method: 'POST',
    path: `${base}/:id/hold`,
    params: fleetItemParams,
    body: workOrderActionBody,
    reply: workOrderWire,
    need: 'workorder.manage',
    summary: 'Put a work order in progress on hold',
    tags,
  }),
  complete: route({
    method: 'POST',
    path: `${base}/:id/complete`,
    params: fleetItemParams,
    body: workOrderCompleteBody,
    reply: workOrderWire,
    need: 'workorder.manage',
    summary:
      'Complete: closes the linked services, archives one service of the unplanned work, resolves the issues',
    tags,
  }),
  cancel: route({
    method: 'POST',
    path: `${base}/:id/cancel`,
    params: fleetItemParams,
    body: workOrderActionBody,
    reply: workOrderWire,
    need: 'workorder.manage',
    summary: 'Cancel an unfinished work order; its issues go back to open',
    tags,
  }),
};
