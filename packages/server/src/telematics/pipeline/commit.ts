import {
  DomainEventType,
  type LiveEvent,
  METER_REFUSED_PER_UNIT_MAX,
  METER_RETENTION_DAYS,
} from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import type { DialectOps } from '../../db/dialect/index.js';
import type { Database } from '../../db/schema.js';
import { domainEventRows } from '../../events/outbox.js';
import { upsertCounterDays } from '../../modules/statistics/counter-days.js';
import { writeFaultCodes } from '../fault-codes.js';
import { LIVE_COLUMNS, LIVE_TYPES } from '../live-unit.js';
import { writeLive } from '../statements.js';
import type { MeterRow, WritePlan } from './plan.js';

/**
 * Step 4 of ingestion: a group's write plan (plan.ts) executed in the group's transaction, in a fixed
 * order: the ingest log and meter history rows (then the history's trim), the counter history's day
 * rows, the units a baseline moved, the fault codes, and last the positions, the other units' live
 * columns and the domain events (statements.ts `writeLive`: one statement on PostgreSQL). A statement
 * is made only for what the plan has.
 */

/** Rows per multi-row insert: well inside both dialects' bind-parameter limits. */
const INSERT_CHUNK = 500;

const chunks = <T>(rows: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(rows.length / INSERT_CHUNK) }, (_, k) =>
    rows.slice(k * INSERT_CHUNK, (k + 1) * INSERT_CHUNK),
  );

/** What the commit adds to the plan's own: the fault codes' domain-event types and live events. */
export interface Committed {
  recorded: string[];
  live: LiveEvent[];
}

export async function commitPlan(
  trx: Transaction<Database>,
  ops: DialectOps,
  plan: WritePlan,
): Promise<Committed> {
  for (const rows of chunks(plan.log)) await trx.insertInto('ingest_log').values(rows).execute();
  for (const rows of chunks(plan.meter)) await trx.insertInto('meter_readings').values(rows).execute();
  await trimMeter(trx, plan.meter, plan.t);
  await upsertCounterDays(trx, ops, plan.counterDays);
  // The units a baseline moved, one by one: they also write their base and corrections (rare).
  for (const unit of plan.baselined)
    await trx.updateTable('units').set(unit.values).where('id', '=', unit.id).execute();
  const fault = await writeFaultCodes(trx, plan.faults, plan.t);
  await writeLive(trx, ops, {
    positions: plan.positions,
    columns: LIVE_COLUMNS,
    types: LIVE_TYPES,
    units: plan.live,
    events: domainEventRows(plan.events),
  });
  return { recorded: fault.recorded ? [DomainEventType.faultCodeOpened] : [], live: fault.live };
}

/**
 * Keeps the meter history bounded (core contracts/meter.ts): for each unit that got rows, its refused
 * readings past the newest `METER_REFUSED_PER_UNIT_MAX` and its readings older than the retention go.
 */
async function trimMeter(trx: Transaction<Database>, rows: MeterRow[], t: number) {
  if (rows.length === 0) return;
  const cutoffMs = (t - METER_RETENTION_DAYS * 86_400) * 1000;
  const refused = new Set(rows.filter((r) => r.status === 'refused').map((r) => r.unit_id));
  // One statement per chunk of units, not one per unit: at a day's first readings every unit of a large
  // fleet has a row, and a delete per unit held the group's transaction (and its row locks on PostgreSQL)
  // for seconds (the load soak's two-instance run).
  // A row whose shift is still pending stays until it is applied (baseline-shift.ts): deleting it would
  // lose the shift, and waiting on its claim would wait for a services lock.
  for (const ids of chunks([...new Set(rows.map((r) => r.unit_id))]))
    await trx
      .deleteFrom('meter_readings')
      .where('unit_id', 'in', ids)
      .where('tm_ms', '<', cutoffMs)
      .where('shift_pending', '=', 0)
      .execute();
  for (const unitId of refused) {
    const edge = await trx
      .selectFrom('meter_readings')
      .select('id')
      .where('unit_id', '=', unitId)
      .where('status', '=', 'refused')
      .orderBy('id', 'desc')
      .offset(METER_REFUSED_PER_UNIT_MAX)
      .limit(1)
      .executeTakeFirst();
    if (edge)
      await trx
        .deleteFrom('meter_readings')
        .where('unit_id', '=', unitId)
        .where('status', '=', 'refused')
        .where('id', '<=', edge.id)
        .execute();
  }
}
