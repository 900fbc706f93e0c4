import { sessionLoginReply } from '../contracts/session.js';
import { setupBody, setupStateReply } from '../contracts/setup.js';
import { route } from './route.js';

/** The first run (DESIGN §8 "Configuration and start"): both routes are public. */

const tags = ['setup'];

export const setupRoutes = {
  state: route({
    method: 'GET',
    path: '/api/setup',
    reply: setupStateReply,
    need: 'public',
    summary: 'Whether the first-run set-up is needed (no user exists yet)',
    tags,
  }),
  run: route({
    method: 'POST',
    path: '/api/setup',
    body: setupBody,
    reply: sessionLoginReply,
    need: 'public',
    summary:
      'First run: create the top account, the super user and a first fleet; 409 once a user exists. ' +
      'Returns a login token for GET /api/auth',
    tags,
  }),
};
