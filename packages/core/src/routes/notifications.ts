import { fleetItemParams, fleetParams, okReply } from '../contracts/common.js';
import {
  alertDeleteReply,
  alertListReply,
  alertReadReply,
  alertSelectionBody,
  inAppSetupBody,
  inAppSetupListReply,
  inAppSetupTestBody,
  inAppSetupTestReply,
  inAppSetupUpdateBody,
  inAppSetupWire,
} from '../contracts/notifications.js';
import { route } from './route.js';

/**
 * In-app notifications (spec §7 "Notifications and alerts", PRODUCT.md "Notifications"):
 * `/notifications` are the fleet's in-app set-ups, `/user/alerts` the caller's own notifications.
 */

const tags = ['notifications'];
const setups = '/api/fleets/:fid/notifications';
const alerts = '/api/fleets/:fid/user/alerts';

export const notificationsRoutes = {
  setups: route({
    method: 'GET',
    path: setups,
    params: fleetParams,
    reply: inAppSetupListReply,
    need: 'fleet.settings',
    summary: 'The fleet’s in-app notification set-ups',
    tags,
  }),
  setupCreate: route({
    method: 'POST',
    path: setups,
    params: fleetParams,
    body: inAppSetupBody,
    reply: inAppSetupWire,
    need: 'fleet.settings',
    summary: 'Add an in-app set-up: kinds (1 due, 2 in progress, 4 overdue, 8 closed, 16 rejected), users',
    tags,
  }),
  setupTest: route({
    method: 'POST',
    path: `${setups}/test`,
    params: fleetParams,
    body: inAppSetupTestBody,
    reply: inAppSetupTestReply,
    need: 'fleet.settings',
    summary: 'Send a test notification of the set-up’s lowest kind to the users it addresses',
    tags,
  }),
  setup: route({
    method: 'GET',
    path: `${setups}/:id`,
    params: fleetItemParams,
    reply: inAppSetupWire,
    need: 'fleet.settings',
    summary: 'One in-app set-up',
    tags,
  }),
  setupUpdate: route({
    method: 'PUT',
    path: `${setups}/:id`,
    params: fleetItemParams,
    body: inAppSetupUpdateBody,
    reply: inAppSetupWire,
    need: 'fleet.settings',
    summary: 'Change an in-app set-up; the set-up as read is accepted (id ignored)',
    tags,
  }),
  setupRemove: route({
    method: 'DELETE',
    path: `${setups}/:id`,
    params: fleetItemParams,
    reply: okReply,
    need: 'fleet.settings',
    summary: 'Delete an in-app set-up',
    tags,
  }),
  alerts: route({
    method: 'GET',
    path: alerts,
    params: fleetParams,
    reply: alertListReply,
    need: 'service.view',
    summary: 'The caller’s notifications in the fleet, newest first, and the unread count',
    tags,
  }),
  alertsRead: route({
    method: 'POST',
    path: alerts,
    params: fleetParams,
    body: alertSelectionBody,
    reply: alertReadReply,
    need: 'service.view',
    summary: 'Mark notifications read, by event ids or all of a kind (only unread ones change)',
    tags,
  }),
  alertsRemove: route({
    method: 'POST',
    path: `${alerts}/delete`,
    params: fleetParams,
    body: alertSelectionBody,
    reply: alertDeleteReply,
    need: 'service.view',
    summary: 'Delete notifications, by event ids or all of a kind',
    tags,
  }),
};
