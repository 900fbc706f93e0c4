import { DomainEventType, type LiveEvent, type NewDomainEvent } from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { recordDomainEvents } from '../events/outbox.js';

/**
 * A unit's fault codes (DTC) from its accepted readings (core contracts/fault-codes.ts), written in the
 * readings' transaction (pipeline/commit.ts). Per unit and code one row: first and last seen,
 * count, cleared. The rule of one sighting is `sight`; `writeFaultCodes` applies a transaction's
 * sightings in order, records "fault code opened" for a code that was not active, and returns the live
 * events that tell the unit page.
 */

/** The row of one unit and code, as the rule reads it. */
export interface FaultCodeState {
  firstSeen: number;
  lastSeen: number;
  count: number;
  clearedAt: number | null;
  clearedBy: number | null;
}

/**
 * One reading at `time` (Unix seconds) reported the code: the row after it, and whether the code opened
 * (`new`: never seen; `reopened`: cleared, and this reading was taken after the clear). A reading taken
 * before the clear (a device sending its buffer late) counts, but does not undo the clear.
 */
export function sight(
  state: FaultCodeState | undefined,
  time: number,
): { next: FaultCodeState; opened: 'new' | 'reopened' | null } {
  if (!state)
    return {
      next: { firstSeen: time, lastSeen: time, count: 1, clearedAt: null, clearedBy: null },
      opened: 'new',
    };
  const reopen = state.clearedAt !== null && time > state.clearedAt;
  return {
    next: {
      firstSeen: Math.min(state.firstSeen, time),
      lastSeen: Math.max(state.lastSeen, time),
      count: state.count + 1,
      clearedAt: reopen ? null : state.clearedAt,
      clearedBy: reopen ? null : state.clearedBy,
    },
    opened: reopen ? 'reopened' : null,
  };
}

/** One accepted reading's codes: the unit, its fleet and the reading's time. */
export interface FaultSighting {
  unitId: number;
  fleetId: number | null;
  time: number;
  codes: readonly string[];
}

interface Row extends FaultCodeState {
  id: number | null;
  unitId: number;
  fleetId: number | null;
  code: string;
  changed: boolean;
}

/**
 * Applies the sightings in order inside the readings' transaction (the units are locked by then on
 * PostgreSQL, so no other transaction writes their rows meanwhile). Returns whether domain events were
 * recorded and the live events to publish after the commit (one per fleet unit whose codes changed).
 */
export async function writeFaultCodes(
  trx: Transaction<Database>,
  sightings: readonly FaultSighting[],
  t: number,
): Promise<{ recorded: boolean; live: LiveEvent[] }> {
  const relevant = sightings.filter((s) => s.codes.length > 0);
  if (relevant.length === 0) return { recorded: false, live: [] };
  const unitIds = [...new Set(relevant.map((s) => s.unitId))];
  const rows = new Map<string, Row>();
  const key = (unitId: number, code: string) => `${unitId}\u0000${code}`;
  for (const r of await trx.selectFrom('fault_codes').selectAll().where('unit_id', 'in', unitIds).execute())
    rows.set(key(r.unit_id, r.code), {
      id: r.id,
      unitId: r.unit_id,
      fleetId: r.fleet_id,
      code: r.code,
      firstSeen: r.first_seen,
      lastSeen: r.last_seen,
      count: r.count,
      clearedAt: r.cleared_at,
      clearedBy: r.cleared_by,
      changed: false,
    });

  const opened: { row: Row; reopened: boolean; fleetId: number }[] = [];
  for (const s of relevant)
    for (const code of s.codes) {
      const k = key(s.unitId, code);
      const before = rows.get(k);
      const { next, opened: how } = sight(before, s.time);
      // One object per unit and code: the events below name the row's id once it is inserted.
      const row: Row = before ?? {
        id: null,
        unitId: s.unitId,
        code,
        ...next,
        fleetId: s.fleetId,
        changed: true,
      };
      Object.assign(row, next, { fleetId: s.fleetId, changed: true });
      rows.set(k, row);
      if (how !== null && s.fleetId !== null)
        opened.push({ row, reopened: how === 'reopened', fleetId: s.fleetId });
    }

  const changed = [...rows.values()].filter((r) => r.changed);
  for (const r of changed) {
    const values = {
      fleet_id: r.fleetId,
      first_seen: r.firstSeen,
      last_seen: r.lastSeen,
      count: r.count,
      cleared_at: r.clearedAt,
      cleared_by: r.clearedBy,
    };
    if (r.id === null) {
      const inserted = await trx
        .insertInto('fault_codes')
        .values({ unit_id: r.unitId, code: r.code, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
      r.id = inserted.id;
    } else await trx.updateTable('fault_codes').set(values).where('id', '=', r.id).execute();
  }

  // Domain events: "fault code opened", the count as it stood after the transaction's readings.
  const events: NewDomainEvent[] = opened.map(({ row, reopened, fleetId }) => ({
    type: DomainEventType.faultCodeOpened,
    fid: fleetId,
    at: t,
    by: null,
    unitId: row.unitId,
    faultCodeId: row.id!,
    code: row.code,
    reopened,
    count: row.count,
  }));
  await recordDomainEvents(trx, events);

  const live = new Map<number, LiveEvent>();
  for (const r of changed)
    if (r.fleetId !== null && !live.has(r.unitId))
      live.set(r.unitId, { t: 'u', s: 'faultcode', fid: r.fleetId, d: { unitId: r.unitId } });
  return { recorded: events.length > 0, live: [...live.values()] };
}
