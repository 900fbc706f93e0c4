import { type Evaluation, evaluate, OVERDUE_MASK, ServiceFlag } from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import type { AssignmentRow, Database, IntervalRow, ServiceRow } from '../db/schema.js';

/** What a recomputation looks at: a whole fleet, some service objects, or some assignments (a union). */
export interface EngineScope {
  fleetId?: number;
  /**
   * With `fleetId`: only the assignments of intervals with a time rule. The clock moves nothing else:
   * counter rules change with counters, baselines and intervals, and each of those runs the engine for
   * what it touched (the minute sweep, timer.ts).
   */
  timeRulesOnly?: boolean;
  objects?: { type: 'u' | 'd' | 't'; id: number }[];
  assignmentIds?: number[];
}

/** Ids per query: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
export const CHUNK = 2000;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface Creation {
  assignment: AssignmentRow;
  interval: IntervalRow;
  evaluation: Evaluation;
  tz: number;
}

export interface FlagChange {
  service: ServiceRow;
  f: number;
}

export interface Plan {
  creations: Creation[];
  changes: FlagChange[];
}

/** A Due service the engine maintains: upcoming, not in progress, not archived (spec §4). */
export function isDue(f: number): boolean {
  return (
    (f & ServiceFlag.upcoming) !== 0 &&
    (f & (ServiceFlag.inProgress | ServiceFlag.closed | ServiceFlag.rejected)) === 0
  );
}

async function loadAssignments(db: Kysely<Database>, scope: EngineScope): Promise<AssignmentRow[]> {
  const found = new Map<number, AssignmentRow>();
  const add = (rows: AssignmentRow[]) => {
    for (const r of rows) found.set(r.id, r);
  };
  if (scope.fleetId !== undefined && scope.timeRulesOnly)
    add(
      await db
        .selectFrom('assignments')
        .innerJoin('intervals', 'intervals.id', 'assignments.interval_id')
        .selectAll('assignments')
        .where('assignments.fleet_id', '=', scope.fleetId)
        .where('intervals.de', '=', 1)
        .execute(),
    );
  else if (scope.fleetId !== undefined)
    add(await db.selectFrom('assignments').selectAll().where('fleet_id', '=', scope.fleetId).execute());
  for (const type of ['u', 'd', 't'] as const) {
    const ids = [...new Set((scope.objects ?? []).filter((o) => o.type === type).map((o) => o.id))];
    for (const part of chunks(ids)) {
      add(
        await db
          .selectFrom('assignments')
          .selectAll()
          .where('object_type', '=', type)
          .where('object_id', 'in', part)
          .execute(),
      );
    }
  }
  for (const part of chunks([...new Set(scope.assignmentIds ?? [])]))
    add(await db.selectFrom('assignments').selectAll().where('id', 'in', part).execute());
  return [...found.values()];
}

/**
 * Loads the assignments in scope with their intervals, fleet zones, unit counters and open services,
 * and decides what to create and which overdue flags to change at `at`. Reads only.
 */
export async function plan(db: Kysely<Database>, scope: EngineScope, at: number): Promise<Plan> {
  const assignments = await loadAssignments(db, scope);
  if (assignments.length === 0) return { creations: [], changes: [] };

  const intervals = new Map<number, IntervalRow>();
  for (const part of chunks([...new Set(assignments.map((a) => a.interval_id))]))
    for (const r of await db.selectFrom('intervals').selectAll().where('id', 'in', part).execute())
      intervals.set(r.id, r);

  const tz = new Map<number, number>();
  for (const part of chunks([...new Set(assignments.map((a) => a.fleet_id))]))
    for (const r of await db.selectFrom('fleets').select(['id', 'tz']).where('id', 'in', part).execute())
      tz.set(r.id, r.tz);

  const units = new Map<number, { mileage: number; engineHours: number }>();
  const unitIds = [...new Set(assignments.filter((a) => a.object_type === 'u').map((a) => a.object_id))];
  for (const part of chunks(unitIds)) {
    const rows = await db
      .selectFrom('units')
      .select(['id', 'mileage', 'engine_hours'])
      .where('id', 'in', part)
      .execute();
    for (const r of rows) units.set(r.id, { mileage: r.mileage, engineHours: r.engine_hours });
  }

  const open = new Map<number, ServiceRow>();
  for (const part of chunks(assignments.map((a) => a.id))) {
    const rows = await db
      .selectFrom('services')
      .selectAll()
      .where('assignment_id', 'in', part)
      .where(sql<number>`f & ${ServiceFlag.closed | ServiceFlag.rejected}`, '=', 0)
      .execute();
    for (const r of rows) open.set(r.assignment_id as number, r);
  }

  const result: Plan = { creations: [], changes: [] };
  for (const assignment of assignments) {
    const interval = intervals.get(assignment.interval_id);
    if (!interval) continue;
    let counters = { mileage: null as number | null, engineHours: null as number | null };
    if (assignment.object_type === 'u') {
      const unit = units.get(assignment.object_id);
      if (!unit) continue;
      counters = unit;
    }
    const zone = tz.get(assignment.fleet_id) ?? 0;
    const evaluation = evaluate(interval, assignment, counters, at, zone);
    const service = open.get(assignment.id);
    if (!service) {
      if (evaluation.notice.length > 0) result.creations.push({ assignment, interval, evaluation, tz: zone });
    } else if (isDue(service.f)) {
      const f = (service.f & ~OVERDUE_MASK) | evaluation.overdueFlags;
      if (f !== service.f) result.changes.push({ service, f });
    }
  }
  return result;
}
