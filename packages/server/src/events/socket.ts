import { ErrorCode, type LiveEvent, UserEventType } from '@fleetkeep/core';
import type { FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import { visibleFleets } from '../auth/access.js';
import type { Actor } from '../auth/actor.js';
import { limitedReach } from '../auth/reach.js';
import type { AppContext } from '../context.js';
import { resolveSession } from '../modules/session/service.js';
import { canReceive } from './visibility.js';

/** How long a new socket may stay silent before it must have sent `{ssid}`. */
const AUTH_TIMEOUT_MS = 10_000;
const PING_EVERY_MS = 30_000;

interface Client {
  socket: WebSocket;
  actor: Actor;
  acls: Map<number, number>;
  /** Fleets where the member reaches only the assigned units, with those units (auth/reach.ts). */
  reach: Map<number, number[]>;
}

async function aclMap(ctx: AppContext, actor: Actor): Promise<Map<number, number>> {
  return new Map((await visibleFleets(ctx, actor)).map((f) => [f.fleet.id, f.acl]));
}

/** Reads the client's fleets, rights and reach again (membership, assignments or time changed them). */
async function refresh(ctx: AppContext, client: Client): Promise<void> {
  const acls = await aclMap(ctx, client.actor);
  const reach = await limitedReach(ctx, client.actor.userId, acls);
  client.acls = acls;
  client.reach = reach;
}

/**
 * The websocket `/events` of DESIGN §6: the first message must be `{ssid}`; a bad one closes the
 * socket. Afterwards the socket receives the events its user may see, from this instance or another. A
 * member limited to assigned units hears only of those units (events/visibility.ts); the units are read
 * again when an assignment of the fleet changes and with every ping, as assignments start and end.
 */
export const eventsSocket =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const clients = new Set<Client>();

    const deliver = (client: Client, event: LiveEvent) => {
      if (client.socket.readyState !== client.socket.OPEN) return;
      const { uid: _uid, by, on: _on, ...wire } = event;
      if (by != null && by === client.actor.sessionId) wire.own = 1;
      client.socket.send(JSON.stringify(wire));
    };

    const onEvent = (event: LiveEvent) => {
      for (const client of clients) {
        if (event.s === 'user' && event.uid === client.actor.userId) {
          const d = event.d as { type?: number; sid?: number };
          const logout = d.type === UserEventType.logout;
          // A logout of another session of the user is not this one's business (the web logs out on any 32).
          if (logout && d.sid !== undefined && d.sid !== client.actor.sessionId) continue;
          deliver(client, event);
          // A logout of this session (or of all the user's sessions) closes its sockets.
          if (logout) client.socket.close(4001, 'Logged out');
          continue;
        }
        if (event.s === 'fleet') {
          // Membership or activation may have changed: a lost fleet still hears its delete event.
          const before = client.acls.has(event.fid ?? -1);
          if (before && (event.t === 'd' || canReceive(event, client.actor.userId, client.acls)))
            deliver(client, event);
          void refresh(ctx, client)
            .then(() => {
              if (!before && canReceive(event, client.actor.userId, client.acls)) deliver(client, event);
            })
            .catch((err) => ctx.log.warn({ err }, 'event acl refresh failed'));
          continue;
        }
        if (event.s === 'assignment' && event.fid !== null && client.reach.has(event.fid)) {
          // The member's own units may have changed: read them again; a unit reached before or after
          // the change hears of it (an assignment that ended tells its driver's lists to read again).
          const before = canReceive(event, client.actor.userId, client.acls, client.reach);
          void refresh(ctx, client)
            .then(() => {
              if (before || canReceive(event, client.actor.userId, client.acls, client.reach))
                deliver(client, event);
            })
            .catch((err) => ctx.log.warn({ err }, 'event reach refresh failed'));
          continue;
        }
        if (canReceive(event, client.actor.userId, client.acls, client.reach)) deliver(client, event);
      }
    };
    const unsubscribe = ctx.bus.subscribe(onEvent);

    const ping = setInterval(() => {
      for (const c of clients) {
        if (c.socket.readyState !== c.socket.OPEN) continue;
        c.socket.ping();
        if (c.reach.size > 0)
          void refresh(ctx, c).catch((err) => ctx.log.warn({ err }, 'event reach refresh failed'));
      }
    }, PING_EVERY_MS);
    ping.unref();

    app.addHook('onClose', async () => {
      clearInterval(ping);
      unsubscribe();
      for (const c of clients) c.socket.close(1001, 'Server shutting down');
    });

    app.get('/events', { config: { public: true }, websocket: true, schema: { hide: true } }, (socket) => {
      let client: Client | undefined;
      const timer = setTimeout(() => socket.close(4001, 'Session is not initialized'), AUTH_TIMEOUT_MS);
      socket.on('message', (raw) => {
        if (client) return; // Clients only listen after the handshake.
        void (async () => {
          let ssid: unknown;
          try {
            ssid = (JSON.parse(String(raw)) as { ssid?: unknown }).ssid;
          } catch {
            ssid = undefined;
          }
          const actor = typeof ssid === 'string' ? await resolveSession(ctx, ssid) : undefined;
          clearTimeout(timer);
          if (!actor) {
            socket.send(JSON.stringify({ error: ErrorCode.noSession, reason: 'Session is not initialized' }));
            socket.close(4001, 'Session is not initialized');
            return;
          }
          const acls = await aclMap(ctx, actor);
          client = { socket, actor, acls, reach: await limitedReach(ctx, actor.userId, acls) };
          clients.add(client);
          socket.send(JSON.stringify({ t: 'e', s: 'user', fid: null, d: { type: 0, ready: true } }));
        })().catch((err) => {
          ctx.log.error({ err }, 'websocket handshake failed');
          socket.close(1011, 'Unexpected fault');
        });
      });
      socket.on('close', () => {
        clearTimeout(timer);
        if (client) clients.delete(client);
      });
    });
  };
