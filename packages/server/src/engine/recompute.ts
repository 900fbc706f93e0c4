import { type AppContext, type CountersListener, now } from '../context.js';
import { type Applied, applyPlan, NOTHING } from './apply.js';
import { type EngineScope, plan } from './plan.js';

export interface RecomputeResult {
  created: number;
  changed: number;
}

/**
 * Plans and writes: a plan without locks or transaction first, so that a run with nothing to do (most
 * runs after a device reading) opens no transaction, then the writes under the fleet locks after, with
 * the plan made again inside them (apply.ts). On SQLite too: a transaction that wrote nothing was a
 * third of the statements of a reading's group.
 */
async function planAndWrite(ctx: AppContext, scope: EngineScope, at: number): Promise<Applied> {
  const first = await plan(ctx.db.kysely, scope, at);
  if (first.creations.length === 0 && first.changes.length === 0) return NOTHING();
  return applyPlan(ctx, scope, first, at);
}

/**
 * The status engine (PRODUCT.md "The status engine"): for each assignment in scope with no open
 * service, creates a Due service once any kind is within its advance notice; keeps the overdue flags of
 * open Due services (never touches In progress or archived ones). Idempotent: a run that finds nothing
 * to do writes nothing. Called by the intervals and services modules after changes, by telematics after
 * counter changes, and by a timer for time rules. Rules are in @fleetkeep/core status.ts.
 */
export async function recompute(
  ctx: AppContext,
  scope: EngineScope,
  at: number = now(),
): Promise<RecomputeResult> {
  const { created, changed } = await planAndWrite(ctx, scope, at);
  // Published by the unit of work of apply.ts after its commit.
  return { created: created.length, changed: changed.length };
}

/** The counters listener (context.ts): a unit's counters moved, so only its assignments are looked at. */
export function engineCountersListener(ctx: AppContext): CountersListener {
  return async (unitIds) => {
    await recompute(ctx, { objects: unitIds.map((id) => ({ type: 'u' as const, id })) });
  };
}
