import { okReply } from '../contracts/common.js';
import {
  sessionAuthQuery,
  sessionAuthReply,
  sessionLoginBody,
  sessionLoginReply,
  sessionPropertyBody,
} from '../contracts/session.js';
import { route } from './route.js';

/** Login, auth, logout and the platform's session property call (DESIGN §4, spec §3 and §7). */

const tags = ['session'];

export const sessionRoutes = {
  login: route({
    method: 'POST',
    path: '/api/login',
    body: sessionLoginBody,
    reply: sessionLoginReply,
    need: 'public',
    summary:
      'Log in with user name and password; returns a login token. A wrong name or password is 401 error 8; a right password of a user whose account (or an account above it) is suspended is 403 `{error: 7, reason: "Account is suspended"}`',
    tags,
  }),
  auth: route({
    method: 'GET',
    path: '/api/auth',
    query: sessionAuthQuery,
    reply: sessionAuthReply,
    need: 'public',
    summary: 'Open a session from a login or API token (spec §3 authentication reply)',
    tags,
  }),
  logout: route({
    method: 'GET',
    path: '/api/logout',
    reply: okReply,
    need: 'user.self',
    summary: 'End the session and revoke its login token',
    tags,
  }),
  setProperty: route({
    method: 'POST',
    path: '/api/remoteapi/core/set_session_property',
    body: sessionPropertyBody,
    reply: okReply,
    need: 'user.self',
    summary: 'Set a session property (spec §7)',
    tags,
  }),
};
