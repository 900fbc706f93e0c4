import {
  assignmentCreateBody,
  assignmentDriversReply,
  assignmentListQuery,
  assignmentListReply,
  assignmentUpdateBody,
  assignmentWire,
} from '../contracts/assignments.js';
import { fleetItemParams, fleetParams, okReply } from '../contracts/common.js';
import { route } from './route.js';

/** Vehicle assignments (core contracts/assignments.ts; docs/product.md "Vehicle assignments"). */

const tags = ['vehicle assignments'];
const base = '/api/fleets/:fid/vehicle-assignments';

export const assignmentsRoutes = {
  list: route({
    method: 'GET',
    path: base,
    params: fleetParams,
    query: assignmentListQuery,
    reply: assignmentListReply,
    need: 'assignment.view',
    summary: 'Vehicle assignments, newest start first; filters: unit, driver, current',
    tags,
  }),
  create: route({
    method: 'POST',
    path: base,
    params: fleetParams,
    body: assignmentCreateBody,
    reply: assignmentWire,
    need: 'assignment.manage',
    summary: 'Assign a unit to a driver; one unit’s assignments never overlap (409)',
    tags,
  }),
  get: route({
    method: 'GET',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: assignmentWire,
    need: 'assignment.view',
    summary: 'One vehicle assignment',
    tags,
  }),
  update: route({
    method: 'PUT',
    path: `${base}/:id`,
    params: fleetItemParams,
    body: assignmentUpdateBody,
    reply: assignmentWire,
    need: 'assignment.manage',
    summary: 'Change or end an assignment (`en`); the assignment as read is accepted',
    tags,
  }),
  remove: route({
    method: 'DELETE',
    path: `${base}/:id`,
    params: fleetItemParams,
    reply: okReply,
    need: 'assignment.manage',
    summary: 'Delete an assignment',
    tags,
  }),
  drivers: route({
    method: 'GET',
    path: '/api/fleets/:fid/assignment-drivers',
    params: fleetParams,
    reply: assignmentDriversReply,
    need: 'assignment.manage',
    summary: 'Whom a unit can be assigned to: the fleet’s members, by name',
    tags,
  }),
};
