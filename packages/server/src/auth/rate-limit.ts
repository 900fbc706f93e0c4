import {
  LOGIN_ADDRESS_FAILURES_MAX,
  LOGIN_LOCK_MAX_SECONDS,
  LOGIN_LOCK_SECONDS,
  LOGIN_NAME_FAILURES_MAX,
  LOGIN_NAME_WINDOW_SECONDS,
  LOGIN_PAIR_FAILURES_MAX,
  LOGIN_WINDOW_SECONDS,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { tooManyRequests } from '../http/errors.js';

/** One count of failures: at most `max` within a sliding window of `windowMs`. */
export interface LoginLimit {
  windowMs: number;
  max: number;
}

/** The throttle's limits in milliseconds (core contracts/session.ts `LOGIN_*`; tests pass other ones). */
export interface LoginLimits {
  /** Per user name and address. */
  pair: LoginLimit;
  /** Per address, for any name. */
  address: LoginLimit;
  /** Per user name, from all addresses: high, so that a few addresses cannot lock the owner out. */
  name: LoginLimit;
  lockMs: number;
  lockMaxMs: number;
}

export const LOGIN_LIMITS: LoginLimits = {
  pair: { windowMs: LOGIN_WINDOW_SECONDS * 1000, max: LOGIN_PAIR_FAILURES_MAX },
  address: { windowMs: LOGIN_WINDOW_SECONDS * 1000, max: LOGIN_ADDRESS_FAILURES_MAX },
  name: { windowMs: LOGIN_NAME_WINDOW_SECONDS * 1000, max: LOGIN_NAME_FAILURES_MAX },
  lockMs: LOGIN_LOCK_SECONDS * 1000,
  lockMaxMs: LOGIN_LOCK_MAX_SECONDS * 1000,
};

/**
 * When a lock ends (Unix ms; 0 when there is none), from earlier failures' times, newest first: with
 * `limit.max` or more failures in the window that ends at the newest one, the lock runs from that
 * failure for `lockMs`, doubled for each failure over the limit, at most `lockMaxMs`.
 */
export function lockedUntil(
  newestFirst: readonly number[],
  limit: LoginLimit,
  limits: Pick<LoginLimits, 'lockMs' | 'lockMaxMs'>,
): number {
  const last = newestFirst[0];
  if (last === undefined) return 0;
  let count = 0;
  for (const at of newestFirst) if (at > last - limit.windowMs) count++;
  if (count < limit.max) return 0;
  const lock = Math.min(limits.lockMs * 2 ** Math.min(count - limit.max, 30), limits.lockMaxMs);
  return last + lock;
}

/** A try whose password check has not ended after this long (its instance died) counts as a failure. */
const STALE_MS = 30_000;
/** Longest wait for a place among the tries in flight before the try is refused (429, `Retry-After`). */
const WAIT_MAX_MS = 60_000;
/** How often a waiting try looks again (tries of other instances end without waking it). */
const POLL_MS = 500;

/** One try under way: `fail` after a wrong password, `succeed` after a right one, `drop` on any other end. */
export interface LoginTry {
  fail(): Promise<void>;
  succeed(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * The login throttle (DESIGN §4; core contracts/session.ts `LOGIN_*`), shared by every instance through
 * the database (table `login_failures`, migrations 015 and 023): failed passwords count per user name
 * and address, per address for any name, and per user name from all addresses with a high limit, each
 * in its sliding window, with short locks that grow (`lockedUntil`). While the pair, the address or the
 * name is locked, a try is refused with 429 `{error: 9}` and `Retry-After`, whatever its password; a
 * refused try is not counted, so a lock never extends itself. Failures from other addresses do not
 * lock a name below its high limit, so that knowing a login is not enough to keep its owner out.
 *
 * Only failures count: a try under way is a `pending` row, which no lock counts. So that parallel tries
 * (on this or another instance) cannot outrun the count, each count has at most as many tries in flight
 * as failures it may still make before its lock (`max − failures in the window`, at least one); a
 * further try waits for one of them to end (it is not refused), so 200 drivers signing in behind one
 * address are all let in, at most 30 password checks at a time (more would only queue for the CPU). A
 * wrong password turns the row into a failure.
 * A right one deletes it with the name's earlier failures from the same address (the user's own
 * typos); failures of the name from other addresses stay, so that signing in does not wipe out a
 * guesser's count elsewhere. Login and the own password change both go through it.
 */
export class LoginLimiter {
  readonly limits: LoginLimits;
  /** Tries of this instance waiting for a place, woken one at a time as tries end. */
  private readonly waiting: (() => void)[] = [];
  constructor(
    limits: Partial<LoginLimits> = {},
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.limits = { ...LOGIN_LIMITS, ...limits };
  }

  async begin(db: Db, name: string, address: string): Promise<LoginTry> {
    const key = name.toLowerCase();
    const deadline = this.clock() + WAIT_MAX_MS;
    for (;;) {
      const t = this.clock();
      // A look without the lock first: a locked or full name or address waits (or is refused) without
      // holding up the others.
      let { full, until } = await this.look(db.kysely, key, address, t);
      let id: number | null = null;
      if (!full && until <= t) {
        // One try at a time takes a place (PostgreSQL: an advisory lock for the few statements; SQLite
        // writes one transaction at a time), so that two tries on two instances cannot both take the last.
        ({ id, full, until } = await db.kysely.transaction().execute(async (trx) => {
          await db.ops.lockInTransaction(trx, 'loginThrottle');
          const now = await this.look(trx, key, address, t);
          if (now.full || now.until > t) return { id: null, ...now };
          const row = await trx
            .insertInto('login_failures')
            .values({ name: key, address, at_ms: t, pending: 1 })
            .returning('id')
            .executeTakeFirstOrThrow();
          return { id: row.id, ...now };
        }));
      }
      if (id !== null) return this.attempt(db.kysely, id, key, address);
      if (until > t || this.clock() >= deadline) {
        const wait = Math.max(1, Math.ceil((until - t) / 1000));
        throw tooManyRequests('Too many login attempts', wait);
      }
      await this.pause();
    }
  }

  /**
   * The state of the pair, the address and the name at `t`: the end of the latest of their locks (0
   * when none), and whether the places of one of them for tries in flight are taken.
   */
  private async look(db: Kysely<Database>, key: string, address: string, t: number) {
    const by = async (where: { name?: string; address?: string }, limit: LoginLimit) => {
      // One statement, so that failures and tries in flight are counted at one moment (a try that
      // fails meanwhile is counted once, as one or the other).
      let query = db
        .selectFrom('login_failures')
        .select(['at_ms', 'pending'])
        .where('at_ms', '>', t - limit.windowMs - this.limits.lockMaxMs);
      if (where.name !== undefined) query = query.where('name', '=', where.name);
      if (where.address !== undefined) query = query.where('address', '=', where.address);
      const rows = await query
        .orderBy('at_ms', 'desc')
        .limit(limit.max * 8)
        .execute();
      const times: number[] = [];
      let inFlight = 0;
      for (const r of rows) {
        const at = Number(r.at_ms);
        if (Number(r.pending) === 1 && at >= t - STALE_MS) inFlight++;
        else times.push(at);
      }
      const recent = times.filter((at) => at > t - limit.windowMs).length;
      // After a lock has passed, one try at a time.
      return {
        until: lockedUntil(times, limit, this.limits),
        full: inFlight >= Math.max(1, limit.max - recent),
      };
    };
    const counts = [
      await by({ name: key, address }, this.limits.pair),
      await by({ address }, this.limits.address),
      await by({ name: key }, this.limits.name),
    ];
    return {
      until: Math.max(...counts.map((c) => c.until)),
      full: counts.some((c) => c.full),
    };
  }

  /** Until a try of this instance ends, or a poll's time has passed (tries of other instances). */
  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve();
      };
      const timer = setTimeout(wake, POLL_MS + Math.floor(Math.random() * POLL_MS));
      this.waiting.push(wake);
    });
  }

  private attempt(db: Kysely<Database>, id: number, name: string, address: string): LoginTry {
    const end = async (write: () => Promise<unknown>) => {
      try {
        await write();
      } finally {
        this.waiting[0]?.();
      }
    };
    return {
      fail: () =>
        end(async () => {
          const t = this.clock();
          await db.updateTable('login_failures').set({ pending: 0, at_ms: t }).where('id', '=', id).execute();
          // Rows past the longest window and the longest lock count no more.
          const windowMs = Math.max(
            this.limits.pair.windowMs,
            this.limits.address.windowMs,
            this.limits.name.windowMs,
          );
          const horizon = t - windowMs - this.limits.lockMaxMs;
          await db.deleteFrom('login_failures').where('at_ms', '<', horizon).execute();
        }),
      succeed: () =>
        end(() =>
          db
            .deleteFrom('login_failures')
            .where((eb) =>
              eb.or([
                eb('id', '=', id),
                eb.and([eb('name', '=', name), eb('address', '=', address), eb('pending', '=', 0)]),
              ]),
            )
            .execute(),
        ),
      drop: () => end(() => db.deleteFrom('login_failures').where('id', '=', id).execute()),
    };
  }
}
