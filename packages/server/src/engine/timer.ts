import { type AppContext, now } from '../context.js';
import { remindDueDocuments } from '../jobs/document-reminders.js';
import { recompute } from './recompute.js';
import { remindDue } from './reminders.js';

const EVERY_MS = 60_000;
/** Every this many sweeps, one looks at every assignment, not only those with a time rule. */
const FULL_EVERY = 60;

/**
 * Recomputes every fleet that has assignments. The clock moves time rules and overdue by days only, so
 * a regular sweep looks at the assignments of intervals with a time rule; a `full` one (at start and
 * hourly) looks at all of them, a safety net for a counter-change run that failed.
 */
export async function sweep(
  ctx: AppContext,
  at: number = now(),
  full = true,
): Promise<{ created: number; changed: number }> {
  const fleets = await ctx.db.kysely.selectFrom('assignments').select('fleet_id').distinct().execute();
  const total = { created: 0, changed: 0 };
  for (const { fleet_id } of fleets) {
    try {
      const r = await recompute(ctx, { fleetId: fleet_id, timeRulesOnly: !full }, at);
      total.created += r.created;
      total.changed += r.changed;
    } catch (err) {
      ctx.log.error({ err, fleetId: fleet_id }, 'status engine sweep failed for a fleet');
    }
  }
  return total;
}

/**
 * On PostgreSQL only the instance that gets the session lock sweeps; the others skip this minute
 * (db/dialect: the lock lives on one pooled connection, released on the same one).
 */
async function guardedSweep(ctx: AppContext, at: number, full: boolean): Promise<void> {
  await ctx.db.ops.withSessionLock(ctx.db.kysely, 'engineSweep', 0, async () => {
    await sweep(ctx, at, full);
    await remindDue(ctx, at);
    await remindDueDocuments(ctx, at);
  });
}

export interface EngineOptions {
  everyMs?: number;
  /** The clock (tests move it forward). */
  clock?: () => number;
}

/** Runs the sweep at start and then once a minute; `stop()` ends it. Runs never overlap. */
export function startEngine(ctx: AppContext, options: EngineOptions = {}): { stop(): void } {
  const clock = options.clock ?? now;
  let running = false;
  let runs = 0;
  const run = () => {
    if (running) return;
    running = true;
    const full = runs % FULL_EVERY === 0;
    runs += 1;
    guardedSweep(ctx, clock(), full)
      .catch((err) => ctx.log.warn({ err }, 'status engine sweep failed'))
      .finally(() => {
        running = false;
      });
  };
  run();
  const timer = setInterval(run, options.everyMs ?? EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
