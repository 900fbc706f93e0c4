import {
  ErrorCode,
  LOGIN_ADDRESS_FAILURES_MAX,
  LOGIN_LOCK_MAX_SECONDS,
  LOGIN_LOCK_SECONDS,
  LOGIN_NAME_FAILURES_MAX,
  LOGIN_WINDOW_SECONDS,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { AppError } from '../http/errors.js';

/** The throttle's limits in milliseconds (core contracts/session.ts `LOGIN_*`; tests pass short ones). */
export interface LoginLimits {
  windowMs: number;
  nameMax: number;
  addressMax: number;
  lockMs: number;
  lockMaxMs: number;
}

export const LOGIN_LIMITS: LoginLimits = {
  windowMs: LOGIN_WINDOW_SECONDS * 1000,
  nameMax: LOGIN_NAME_FAILURES_MAX,
  addressMax: LOGIN_ADDRESS_FAILURES_MAX,
  lockMs: LOGIN_LOCK_SECONDS * 1000,
  lockMaxMs: LOGIN_LOCK_MAX_SECONDS * 1000,
};

/**
 * When a lock ends (Unix ms; 0 when there is none), from earlier failures' times, newest first: with
 * `max` or more failures in the window that ends at the newest one, the lock runs from that failure for
 * `lockMs`, doubled for each failure over `max`, at most `lockMaxMs`.
 */
export function lockedUntil(newestFirst: readonly number[], max: number, limits: LoginLimits): number {
  const last = newestFirst[0];
  if (last === undefined) return 0;
  let count = 0;
  for (const at of newestFirst) if (at > last - limits.windowMs) count++;
  if (count < max) return 0;
  const lock = Math.min(limits.lockMs * 2 ** Math.min(count - max, 30), limits.lockMaxMs);
  return last + lock;
}

/**
 * The login throttle (DESIGN §4; issue 14 item 3), shared by every instance through the database (table
 * `login_failures`, migration 015): failed passwords count per user name from any address and per
 * address for any name, in a sliding window, with short locks that grow (`lockedUntil`).
 *
 * `begin` records the try before its password is checked, so that parallel tries (on this or another
 * instance) count each other, and refuses it with 429 `{error: 9}` (`Retry-After`) while the name or the
 * address is locked; a refused try is not counted, so a lock never extends itself. The try stays as a
 * failure unless `succeed` clears the name. Login and the own password change both go through it.
 */
export class LoginLimiter {
  readonly limits: LoginLimits;
  constructor(
    limits: Partial<LoginLimits> = {},
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.limits = { ...LOGIN_LIMITS, ...limits };
  }

  async begin(db: Kysely<Database>, name: string, address: string): Promise<void> {
    const key = name.toLowerCase();
    const t = this.clock();
    const horizon = t - this.limits.windowMs - this.limits.lockMaxMs;
    await db.deleteFrom('login_failures').where('at_ms', '<', horizon).execute();
    const { id } = await db
      .insertInto('login_failures')
      .values({ name: key, address, at_ms: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const earlier = async (column: 'name' | 'address', value: string, max: number) => {
      const rows = await db
        .selectFrom('login_failures')
        .select('at_ms')
        .where(column, '=', value)
        .where('id', '<', id)
        .where('at_ms', '>', horizon)
        .orderBy('at_ms', 'desc')
        .limit(max * 4)
        .execute();
      return lockedUntil(
        rows.map((r) => Number(r.at_ms)),
        max,
        this.limits,
      );
    };
    const until = Math.max(
      await earlier('name', key, this.limits.nameMax),
      await earlier('address', address, this.limits.addressMax),
    );
    if (until > t) {
      await db.deleteFrom('login_failures').where('id', '=', id).execute();
      const wait = Math.max(1, Math.ceil((until - t) / 1000));
      throw new AppError(ErrorCode.tooManyRequests, 'Too many login attempts', { retry_after: wait });
    }
  }

  /** The right password: the name's failures (from every address) are forgotten. */
  async succeed(db: Kysely<Database>, name: string): Promise<void> {
    await db.deleteFrom('login_failures').where('name', '=', name.toLowerCase()).execute();
  }
}
