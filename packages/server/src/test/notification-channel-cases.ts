import { FLEET_ADMINS, type MatrixUser, outcomes } from './matrix.js';
import type { CaseEnv, RouteCase } from './routes.js';

/**
 * Permission-matrix cases of the notification channels (decisions in core
 * contracts/notification-channels.ts), spread into ROUTE_CASES of routes.ts. Every route needs admin or
 * viewNotification (`fleet.settings`: root, admin, manager); the outsider is no member, and another
 * fleet's set-ups and deliveries stay invisible to the demo fleet's users.
 */

const SETUP = 'matrix channel';
/**
 * An inside address: the default outbound policy (`external`) refuses it before connecting, so a test
 * there answers `{ok: false}` at once, without leaving the process.
 */
const CLOSED = 'http://127.0.0.1:9/hook';
/** An outside address for the set-ups saved (switched off: nothing is ever sent there). */
const OUTSIDE = 'https://hooks.example.com/matrix';

type Channel = 'mail' | 'bot' | 'webhook';
const PATHS: Record<Channel, string> = { mail: 'mails', bot: 'bots', webhook: 'webhooks' };
const BODIES: Record<Channel, Record<string, unknown>> = {
  mail: { n: SETUP, k: 5, lang: 'de', recipients: ['fleet@example.com'] },
  bot: { n: SETUP, k: 5, lang: 'en', url: CLOSED, token: '123:abc', chats: ['42'] },
  webhook: { n: SETUP, k: 5, url: CLOSED, secret: 'matrix-secret' },
};
const CONFIGS: Record<Channel, string> = {
  mail: JSON.stringify({ recipients: ['fleet@example.com'] }),
  bot: JSON.stringify({ url: CLOSED, chats: ['42'] }),
  webhook: JSON.stringify({ url: CLOSED }),
};

/** A set-up as saved: switched off, its URL outside (the policy refuses CLOSED on save). */
const saved = (channel: Channel) =>
  channel === 'mail' ? BODIES.mail : { ...BODIES[channel], on: 0, url: OUTSIDE };

/** A set-up of a fleet, written directly. */
async function seedSetup({ t, fx }: CaseEnv, channel: Channel, fleetId = fx.fleetId): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('channel_setups')
    .values({
      fleet_id: fleetId,
      channel,
      name: SETUP,
      enabled: 1,
      kinds: 31,
      lang: channel === 'webhook' ? null : 'en',
      config: CONFIGS[channel],
      secret: channel === 'mail' ? null : 'matrix-secret',
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A failed delivery of a fleet, written directly (for the retry route). */
async function seedFailedDelivery({ t, fx }: CaseEnv, fleetId = fx.fleetId): Promise<number> {
  const row = await t.server.ctx.db.kysely
    .insertInto('notification_deliveries')
    .values({
      fleet_id: fleetId,
      channel: 'webhook',
      setup_id: 0,
      setup_name: SETUP,
      event_id: `matrix-${Math.random()}`,
      kind: 1,
      service_id: null,
      snapshot: '{}',
      status: 'failed',
      attempts: 5,
      next_at: null,
      last_at: 0,
      error: 'HTTP 500',
      created_at: 0,
      recipient: '',
      test: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes the deliveries the cases made. */
async function restoreDeliveries({ t }: CaseEnv) {
  await t.server.ctx.db.kysely
    .deleteFrom('notification_deliveries')
    .where('setup_name', '=', SETUP)
    .execute();
}

/** Removes the set-ups the cases made. */
async function restore({ t }: CaseEnv) {
  await t.server.ctx.db.kysely.deleteFrom('channel_setups').where('name', '=', SETUP).execute();
}

const base = (env: CaseEnv, channel: Channel) => `/api/fleets/${env.fx.fleetId}/${PATHS[channel]}`;
/** Northwind: root by role, its own user (every bit); the demo users are no members there. */
const NORTHWIND: MatrixUser[] = ['root', 'outsider'];

function channelCases(channel: Channel): RouteCase[] {
  const path = `/api/fleets/:fid/${PATHS[channel]}`;
  return [
    {
      route: `GET ${path}`,
      build: (env) => ({ method: 'GET', url: base(env, channel) }),
      expect: outcomes(FLEET_ADMINS),
    },
    {
      route: `POST ${path}`,
      build: (env) => ({ method: 'POST', url: base(env, channel), body: saved(channel) }),
      expect: outcomes(FLEET_ADMINS),
      restore,
    },
    {
      route: `POST ${path}/test`,
      build: (env) => ({ method: 'POST', url: `${base(env, channel)}/test`, body: BODIES[channel] }),
      // The test servers have no SMTP_URL: a mail test says so (409), the others answer `{ok: false}`.
      expect: channel === 'mail' ? mailTestOutcomes() : outcomes(FLEET_ADMINS),
    },
    {
      route: `PUT ${path}/:id`,
      build: async (env) => ({
        method: 'PUT',
        url: `${base(env, channel)}/${await seedSetup(env, channel)}`,
        body: { k: 4 },
      }),
      expect: outcomes(FLEET_ADMINS),
      restore,
    },
    {
      route: `DELETE ${path}/:id`,
      build: async (env) => ({
        method: 'DELETE',
        url: `${base(env, channel)}/${await seedSetup(env, channel)}`,
      }),
      expect: outcomes(FLEET_ADMINS),
      restore,
    },
    {
      route: `GET ${path}`,
      label: "the outsider's fleet",
      otherFleet: true,
      build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.otherFleetId}/${PATHS[channel]}` }),
      expect: outcomes(NORTHWIND),
    },
    {
      route: `PUT ${path}/:id`,
      label: "a set-up of the outsider's fleet through the demo fleet",
      build: async (env) => ({
        method: 'PUT',
        url: `${base(env, channel)}/${await seedSetup(env, channel, env.fx.otherFleetId)}`,
        body: { k: 4 },
      }),
      // Allowed on the demo fleet, but the set-up is not the demo fleet's: not found.
      expect: notFoundFor(FLEET_ADMINS),
      restore,
    },
  ];
}

/** The allowed users get 409 `{error: 10}` (mail is not configured), the others 403. */
function mailTestOutcomes() {
  const out = outcomes(FLEET_ADMINS);
  for (const u of FLEET_ADMINS) out[u] = { status: 409, error: 10 };
  return out;
}

/** The allowed users get 404 `{error: 5}`, the others 403. */
function notFoundFor(users: readonly MatrixUser[]) {
  const out = outcomes(users);
  for (const u of users) out[u] = { status: 404, error: 5 };
  return out;
}

export const NOTIFICATION_CHANNEL_CASES: RouteCase[] = [
  ...channelCases('mail'),
  ...channelCases('bot'),
  ...channelCases('webhook'),
  {
    route: 'GET /api/fleets/:fid/deliveries',
    build: (env) => ({ method: 'GET', url: `/api/fleets/${env.fx.fleetId}/deliveries?limit=5` }),
    expect: outcomes(FLEET_ADMINS),
  },
  {
    route: 'GET /api/fleets/:fid/deliveries',
    label: "the outsider's fleet",
    otherFleet: true,
    build: ({ fx }) => ({ method: 'GET', url: `/api/fleets/${fx.otherFleetId}/deliveries` }),
    expect: outcomes(NORTHWIND),
  },
  {
    route: 'POST /api/fleets/:fid/deliveries/:id/retry',
    build: async (env) => ({
      method: 'POST',
      url: `/api/fleets/${env.fx.fleetId}/deliveries/${await seedFailedDelivery(env)}/retry`,
      body: {},
    }),
    expect: outcomes(FLEET_ADMINS),
    restore: restoreDeliveries,
  },
  {
    route: 'POST /api/fleets/:fid/deliveries/:id/retry',
    label: "a delivery of the outsider's fleet through the demo fleet",
    build: async (env) => ({
      method: 'POST',
      url: `/api/fleets/${env.fx.fleetId}/deliveries/${await seedFailedDelivery(env, env.fx.otherFleetId)}/retry`,
      body: {},
    }),
    expect: notFoundFor(FLEET_ADMINS),
    restore: restoreDeliveries,
  },
];
