import {
  DEFAULT_SETTINGS,
  idParams,
  okReply,
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
} from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { changeOwnPassword } from './password.js';
import { createToken, deleteToken, listTokens, patchSettings, switchFleet, userUnits } from './service.js';

/** The user's own calls (spec §7 "User"); contracts in core contracts/user.ts. */
export const userRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['user'];
    app.get(
      '/api/user/tokens',
      {
        config: { need: 'user.self' },
        schema: { tags, summary: 'Personal API tokens', response: { 200: userTokensReply } },
      },
      async (req) => listTokens(ctx, actorOf(req)),
    );
    app.post(
      '/api/user/tokens',
      {
        config: { need: 'user.self' },
        schema: {
          tags,
          summary: 'Create a personal API token; the value is returned once',
          body: userTokenCreateBody,
          response: { 200: userTokenCreateReply },
        },
      },
      async (req) => createToken(ctx, actorOf(req), req.body.description, req.body.rights),
    );
    app.delete(
      '/api/user/tokens/:id',
      {
        config: { need: 'user.self' },
        schema: {
          tags,
          summary: 'Delete a personal API token',
          params: idParams,
          response: { 200: okReply },
        },
      },
      async (req) => deleteToken(ctx, actorOf(req), req.params.id),
    );
    app.put(
      '/api/user/fleet',
      {
        config: { need: 'user.self' },
        schema: {
          tags,
          summary: 'Switch the current fleet (error 3 when unknown or current)',
          body: userFleetBody,
          response: { 200: userFleetReply },
        },
      },
      async (req) => switchFleet(ctx, actorOf(req), req.body.fid),
    );
    app.patch(
      '/api/user/settings',
      {
        config: { need: 'user.self' },
        schema: {
          tags,
          summary: `Change user settings (the keys ${SETTINGS_KEYS.join(', ')}; any other is 400 error 4, as are settings over ${SETTINGS_TOTAL_MAX} bytes in all); the reply is the merged settings (defaults: ${JSON.stringify(DEFAULT_SETTINGS)})`,
          body: userSettingsPatchBody,
          response: { 200: userSettings },
        },
      },
      async (req) => patchSettings(ctx, actorOf(req), req.body),
    );
    app.put(
      '/api/user/password',
      {
        config: { need: 'user.self' },
        schema: {
          tags,
          summary:
            'Change the own password (old one required; a wrong one is error 4 on body.old and counts as a failed login); ends the other sessions and API tokens; not with an API token (403)',
          body: userPasswordBody,
          response: { 200: okReply },
        },
      },
      async (req) => {
        await changeOwnPassword(ctx, actorOf(req), req.body.old, req.body.new, req.ip);
        return { error: 0 } as const;
      },
    );
    app.get(
      '/api/user/units',
      {
        config: { need: 'user.self' },
        schema: { tags, summary: 'Units the user can see', response: { 200: userUnitsReply } },
      },
      async (req) => userUnits(ctx, actorOf(req)),
    );
  };
