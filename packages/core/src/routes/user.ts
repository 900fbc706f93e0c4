import { DEFAULT_SETTINGS } from '../constants.js';
import { idParams, okReply } from '../contracts/common.js';
import {
  SETTINGS_KEYS,
  SETTINGS_TOTAL_MAX,
  userFleetBody,
  userFleetReply,
  userPasswordBody,
  userSettings,
  userSettingsPatchBody,
  userTokenCreateBody,
  userTokenCreateReply,
  userTokensReply,
  userUnitsReply,
} from '../contracts/user.js';
import { route } from './route.js';

/** The user's own calls (spec §7 "User", PRODUCT.md "API tokens"). */

const tags = ['user'];

export const userRoutes = {
  tokens: route({
    method: 'GET',
    path: '/api/user/tokens',
    reply: userTokensReply,
    need: 'user.self',
    summary: 'Personal API tokens',
    tags,
  }),
  tokenCreate: route({
    method: 'POST',
    path: '/api/user/tokens',
    body: userTokenCreateBody,
    reply: userTokenCreateReply,
    need: 'user.self',
    summary: 'Create a personal API token; the value is returned once',
    tags,
  }),
  tokenRemove: route({
    method: 'DELETE',
    path: '/api/user/tokens/:id',
    params: idParams,
    reply: okReply,
    need: 'user.self',
    summary: 'Delete a personal API token',
    tags,
  }),
  switchFleet: route({
    method: 'PUT',
    path: '/api/user/fleet',
    body: userFleetBody,
    reply: userFleetReply,
    need: 'user.self',
    summary: 'Switch the current fleet (error 3 when unknown or current)',
    tags,
  }),
  settings: route({
    method: 'PATCH',
    path: '/api/user/settings',
    body: userSettingsPatchBody,
    reply: userSettings,
    need: 'user.self',
    summary: `Change user settings (the keys ${SETTINGS_KEYS.join(', ')}; any other is 400 error 4, as are settings over ${SETTINGS_TOTAL_MAX} bytes in all); the reply is the merged settings (defaults: ${JSON.stringify(DEFAULT_SETTINGS)})`,
    tags,
  }),
  password: route({
    method: 'PUT',
    path: '/api/user/password',
    body: userPasswordBody,
    reply: okReply,
    need: 'user.self',
    summary:
      'Change the own password (old one required; a wrong one is error 4 on body.old and counts as a failed login); ends the other sessions and API tokens; not with an API token (403)',
    tags,
  }),
  units: route({
    method: 'GET',
    path: '/api/user/units',
    reply: userUnitsReply,
    need: 'user.self',
    summary: 'Units the user can see',
    tags,
  }),
};
