import { DEFAULT_SETTINGS, id, idParams, LANGUAGES } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/auth-hook.js';
import { zApp } from '../../http/types.js';
import { createToken, deleteToken, listTokens, patchSettings, switchFleet, userUnits } from './service.js';

const right = z.enum(['none', 'view', 'manage']);
const rights = z.object({ intervals: right, services: right, archive: right });

/** The date formats of spec §5 and the time formats of the settings screen. */
const DATE_FORMATS = ['DD.MM.YYYY', 'DD MMM YYYY', 'YYYY-MM-DD', 'MM-DD-YYYY', 'DD-MM-YYYY'] as const;
const TIME_FORMATS = ['HH:mm', 'hh:mm A', 'HH:mm:ss', 'hh:mm:ss A'] as const;

const settingsPatch = z
  .object({
    lang: z.enum(LANGUAGES).optional(),
    dateFormat: z.enum(DATE_FORMATS).optional(),
    timeFormat: z.enum(TIME_FORMATS).optional(),
    notification: z.object({ enabled: z.number().int().min(0).max(31) }).optional(),
    layer: z.string().min(1).max(128).optional(),
    help: z
      .object({
        x: z.number(),
        y: z.number(),
        w: z.number(),
        h: z.number(),
        state: z.string().max(16).optional(),
      })
      .nullable()
      .optional(),
  })
  // Later screens keep their own keys (dashboard layout and the like), each a small JSON value.
  .catchall(z.unknown().refine((v) => JSON.stringify(v ?? null).length <= 16384, 'Value too large'));

export const userRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (fastify) => {
    const app = zApp(fastify);
    const tags = ['user'];

    app.get(
      '/api/user/tokens',
      { config: { need: 'user.self' }, schema: { tags, summary: 'Personal API tokens' } },
      async (req) => listTokens(ctx, actorOf(req)),
    );
    app.post(
      '/api/user/tokens',
      {
        config: { need: 'user.self' },
        schema: {
          tags,
          summary: 'Create a personal API token; the value is returned once',
          body: z.object({ description: z.string().min(1).max(128), rights }),
        },
      },
      async (req) => createToken(ctx, actorOf(req), req.body.description, req.body.rights),
    );
    app.delete(
      '/api/user/tokens/:id',
      {
        config: { need: 'user.self' },
        schema: { tags, summary: 'Delete a personal API token', params: idParams },
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
          body: z.object({ fid: id }),
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
          summary: `Change user settings; the reply is the merged settings (defaults: ${JSON.stringify(DEFAULT_SETTINGS)})`,
          body: settingsPatch,
        },
      },
      async (req) => patchSettings(ctx, actorOf(req), req.body),
    );
    app.get(
      '/api/user/units',
      { config: { need: 'user.self' }, schema: { tags, summary: 'Units the user can see' } },
      async (req) => userUnits(ctx, actorOf(req)),
    );
  };
