import type { AppContext } from '../context.js';

/** What a recomputation looks at: a whole fleet, some service objects, or some assignments. */
export interface EngineScope {
  fleetId?: number;
  objects?: { type: 'u' | 'd' | 't'; id: number }[];
  assignmentIds?: number[];
}

/**
 * The status engine (PRODUCT.md "The status engine"): creates Due services at the advance notice and
 * keeps the overdue flags; idempotent. Called by the intervals and services modules after changes,
 * by telematics after counter changes, and by a timer for time rules.
 */
export async function recompute(_ctx: AppContext, _scope: EngineScope, _at?: number): Promise<void> {}
