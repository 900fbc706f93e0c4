import { noContent } from '../contracts/common.js';
import { clientFaultBody, clientFaultsReply } from '../contracts/platform.js';
import { route } from './route.js';

/** Faults of the web client (spec §8): reported by any page, read by the super user. */

export const clientErrorsRoutes = {
  report: route({
    method: 'POST',
    path: '/api/client_errors',
    body: clientFaultBody,
    reply: noContent,
    status: 204,
    need: 'public',
    summary:
      'Report a fault of the web client (spec §8); public, limited per address; the session, when sent, names the user',
    tags: ['meta'],
  }),
  list: route({
    method: 'GET',
    path: '/api/admin/client_errors',
    reply: clientFaultsReply,
    need: 'platform.su',
    summary: 'The newest client fault reports, newest first (super user)',
    tags: ['admin'],
  }),
};
