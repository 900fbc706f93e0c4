import type { ClientFaultReport, ClientFaultWire } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, DAY, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { accessDenied, tooManyRequests } from '../../http/errors.js';

/**
 * Client faults (spec §8 "Client faults are reported to an error-reporting service with release
 * 4.4.34"). The self-hosted product is its own error-reporting service: every report goes to the server
 * log at warn level, and the newest ones are kept in the database (table `client_faults`, migration 015)
 * for super users to read, whichever instance received them: at most `KEPT_FAULTS`,
 * none older than `FAULT_RETENTION_DAYS`. Reports come before login too, so the call is public and
 * limited per address (per instance: a broken page in a loop reaches one instance at a time anyway).
 */
export type FaultReport = ClientFaultReport;
/** A kept report (core `clientFaultWire`): the report, its arrival time, user agent and user name. */
export type StoredFault = ClientFaultWire;

/** How many reports stay readable; the log keeps them all. */
export const KEPT_FAULTS = 200;
/** Days a report stays readable. */
export const FAULT_RETENTION_DAYS = 30;
/** Reports accepted per address and minute; a broken page in a loop must not flood the log. */
export const FAULTS_PER_MINUTE = 30;

/** Addresses whose minute is remembered; past that the least recently reporting one is forgotten. */
export const FAULT_ADDRESSES = 10_000;

/** The per-address budget of reports. */
export class FaultRecorder {
  private readonly windows: LRUCache<string, { start: number; count: number }>;

  constructor(
    private readonly clock: () => number = () => Date.now(),
    addresses = FAULT_ADDRESSES,
  ) {
    this.windows = new LRUCache({ max: addresses });
  }

  /** Counts a report from an address; false once the address used up its minute. */
  admit(address: string): boolean {
    const t = this.clock();
    const window = this.windows.get(address);
    if (!window || t - window.start >= 60_000) {
      this.windows.set(address, { start: t, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= FAULTS_PER_MINUTE;
  }
}

const recorders = new WeakMap<AppContext, FaultRecorder>();

export function faultRecorderOf(ctx: AppContext): FaultRecorder {
  let recorder = recorders.get(ctx);
  if (!recorder) {
    recorder = new FaultRecorder();
    recorders.set(ctx, recorder);
  }
  return recorder;
}

/** Stores a report, then trims what is past the retention or the cap. */
async function keep(db: Kysely<Database>, fault: StoredFault): Promise<void> {
  await db
    .insertInto('client_faults')
    .values({
      kind: fault.kind,
      release: fault.release,
      message: fault.message,
      stack: fault.stack ?? null,
      url: fault.url ?? null,
      user_agent: fault.userAgent,
      user_name: fault.user,
      tm: fault.tm,
    })
    .execute();
  await db
    .deleteFrom('client_faults')
    .where('tm', '<', fault.tm - FAULT_RETENTION_DAYS * DAY)
    .execute();
  const oldestKept = await db
    .selectFrom('client_faults')
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(KEPT_FAULTS - 1)
    .executeTakeFirst();
  if (oldestKept) await db.deleteFrom('client_faults').where('id', '<', oldestKept.id).execute();
}

export async function reportFault(
  ctx: AppContext,
  input: FaultReport,
  from: { address: string; userAgent: string; actor: Actor | undefined },
): Promise<void> {
  const recorder = faultRecorderOf(ctx);
  if (!recorder.admit(from.address)) {
    throw tooManyRequests('Too many fault reports', 60);
  }
  const fault: StoredFault = {
    ...input,
    tm: now(),
    userAgent: from.userAgent.slice(0, 512),
    user: from.actor?.name ?? null,
  };
  ctx.log.warn({ clientFault: fault }, `client ${fault.kind} (release ${fault.release}): ${fault.message}`);
  await keep(ctx.db.kysely, fault);
}

export async function listFaults(ctx: AppContext, actor: Actor): Promise<{ faults: StoredFault[] }> {
  // Reports may hold user data from pages of any fleet: super users only, never through an API token.
  if (!actor.su || actor.apiTokenId !== null) throw accessDenied();
  const rows = await ctx.db.kysely
    .selectFrom('client_faults')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(KEPT_FAULTS)
    .execute();
  return {
    faults: rows.map((r) => ({
      kind: r.kind as StoredFault['kind'],
      release: r.release,
      message: r.message,
      ...(r.stack !== null && { stack: r.stack }),
      ...(r.url !== null && { url: r.url }),
      tm: Number(r.tm),
      userAgent: r.user_agent,
      user: r.user_name,
    })),
  };
}
