import type { FastifyBaseLogger } from 'fastify';
import type { LoginLimiter } from './auth/rate-limit.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { EventBus } from './events/bus.js';
import type { Outbox } from './events/outbox.js';

/** Called after a unit's counters changed, so that later modules (the status engine) can react. */
export type CountersListener = (unitIds: number[]) => Promise<void>;

/** Everything a service function needs; built once per process (or per test server). */
export interface AppContext {
  config: Config;
  db: Db;
  bus: EventBus;
  /** Domain events: `publish()` after a commit that recorded some; consumers register here. */
  outbox: Outbox;
  log: FastifyBaseLogger;
  limiter: LoginLimiter;
  countersListeners: CountersListener[];
}

export const now = (): number => Math.floor(Date.now() / 1000);
/** Seconds in a day (spec §9). */
export const DAY = 86400;
