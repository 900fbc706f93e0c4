import { actionBody, fleetItemParams, fleetParams, okReply } from '../contracts/common.js';
import {
  reportMailBody,
  reportMailListReply,
  reportMailSendReply,
  reportMailUpdateBody,
  reportMailWire,
} from '../contracts/reportmails.js';
import { route } from './route.js';

/**
 * Report mails (spec §7 "Report mails", PRODUCT.md "Reports"): read with `report.view`, set up and sent
 * with `report.mail`.
 */

const tags = ['reports'];
const path = '/api/fleets/:fid/reportmails';

export const reportmailsRoutes = {
  list: route({
    method: 'GET',
    path,
    params: fleetParams,
    reply: reportMailListReply,
    need: 'report.view',
    summary: 'The fleet’s report mails, by name',
    tags,
  }),
  create: route({
    method: 'POST',
    path,
    params: fleetParams,
    body: reportMailBody,
    reply: reportMailWire,
    need: 'report.mail',
    summary: 'Creates a report mail (recipients, report, format, schedule, language)',
    tags,
  }),
  get: route({
    method: 'GET',
    path: `${path}/:id`,
    params: fleetItemParams,
    reply: reportMailWire,
    need: 'report.view',
    summary: 'One report mail with its last send',
    tags,
  }),
  update: route({
    method: 'PUT',
    path: `${path}/:id`,
    params: fleetItemParams,
    body: reportMailUpdateBody,
    reply: reportMailWire,
    need: 'report.mail',
    summary: 'Changes a report mail (any of its fields; the mail as read is accepted)',
    tags,
  }),
  remove: route({
    method: 'DELETE',
    path: `${path}/:id`,
    params: fleetItemParams,
    reply: okReply,
    need: 'report.mail',
    summary: 'Deletes a report mail and its send log',
    tags,
  }),
  send: route({
    method: 'POST',
    path: `${path}/:id/send`,
    params: fleetItemParams,
    body: actionBody,
    reply: reportMailSendReply,
    need: 'report.mail',
    summary: 'Sends a report mail now (the period before today); answers the result',
    tags,
  }),
};
