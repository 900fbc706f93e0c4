import {
  type LineItemLineInput,
  type ServiceCreateInput,
  ServiceFlag,
  type ServiceUpdateInput,
} from '@fleetkeep/core';
import type { Kysely, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Database, ServiceRow, ServiceTable } from '../../db/schema.js';
import { changedFixedFields } from '../../http/fixed-fields.js';
import { type Issue, thousandths as thousandthsOf } from '../lineitems/library.js';
import { serviceToWire } from '../maintenance-wire.js';
import { type ObjectKey, objectKey } from './load.js';
import { NO_OWNER } from './owners.js';
import {
  canTransition,
  type DateIn,
  dayOf,
  flagsFor,
  isArchived,
  type Status,
  statusFromFlag,
  statusOf,
} from './rules.js';

/**
 * Turns create and update requests into rows, checking the rules of spec §4/§5 and PRODUCT.md
 * "Services" against the fleet's "today" (start of the day in the fleet zone). Every failing field is
 * reported; a rule between states (a refused transition, a second open service) is a conflict.
 */

export interface PlanContext {
  fleetId: number;
  tz: number;
  today: number;
  now: number;
  actorId: number;
}

export interface ObjectState {
  mileage: number | null;
  engineHours: number | null;
}

export interface Lookup {
  objects: Map<ObjectKey, ObjectState>;
  intervals: Set<number>;
  /** `${intervalId}:${objectKey}` → assignment id and whether it has an open service. */
  assignments: Map<string, { id: number; open: boolean }>;
}

const OPEN = sql<number>`(${sql.ref('f')} & 24)`;

/** Objects, intervals and assignments the rows refer to, each kind in one query. */
export async function lookup(
  db: Kysely<Database>,
  fleetId: number,
  refs: { t: string; uid: number; ivid?: number | null }[],
): Promise<Lookup> {
  const objects = new Map<ObjectKey, ObjectState>();
  for (const [type, table] of [
    ['u', 'units'],
    ['d', 'drivers'],
    ['t', 'trailers'],
  ] as const) {
    const ids = [...new Set(refs.filter((r) => r.t === type).map((r) => r.uid))];
    if (ids.length === 0) continue;
    if (table === 'units') {
      const rows = await db
        .selectFrom('units')
        .select(['id', 'mileage', 'engine_hours'])
        .where('fleet_id', '=', fleetId)
        .where('id', 'in', ids)
        .execute();
      for (const r of rows)
        objects.set(objectKey('u', r.id), { mileage: r.mileage, engineHours: r.engine_hours });
    } else {
      const rows = await db
        .selectFrom(table)
        .select('id')
        .where('fleet_id', '=', fleetId)
        .where('id', 'in', ids)
        .execute();
      for (const r of rows) objects.set(objectKey(type, r.id), { mileage: null, engineHours: null });
    }
  }
  const ivids = [...new Set(refs.map((r) => r.ivid).filter((x): x is number => typeof x === 'number'))];
  const intervals = new Set<number>();
  const assignments = new Map<string, { id: number; open: boolean }>();
  if (ivids.length) {
    const found = await db
      .selectFrom('intervals')
      .select('id')
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', ivids)
      .execute();
    for (const i of found) intervals.add(i.id);
    const rows = await db
      .selectFrom('assignments')
      .select(['id', 'interval_id', 'object_type', 'object_id'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('services')
              .select('services.id')
              .whereRef('services.assignment_id', '=', 'assignments.id')
              .where(OPEN, '=', 0),
          )
          .as('open'),
      )
      .where('fleet_id', '=', fleetId)
      .where('interval_id', 'in', ivids)
      .execute();
    for (const a of rows)
      assignments.set(`${a.interval_id}:${objectKey(a.object_type, a.object_id)}`, {
        id: a.id,
        open: Boolean(a.open),
      });
  }
  return { objects, intervals, assignments };
}

export interface Plan<R> {
  issues: Issue[];
  conflict?: string;
  row: R;
  lines?: LineItemLineInput[];
  from?: Status;
  to: Status;
  object?: ObjectState;
}

function dates(pc: PlanContext, prefix: string, issues: Issue[]) {
  return (field: string, value: DateIn | null | undefined): number | null | undefined => {
    if (value === undefined || value === null) return value;
    const day = dayOf(pc.tz, value);
    if (day === undefined) issues.push({ field: `${prefix}${field}`, message: 'Invalid date' });
    return day ?? null;
  };
}

function checkClosedDates(pc: PlanContext, prefix: string, issues: Issue[], start: number, end: number) {
  if (start > pc.today) issues.push({ field: `${prefix}start_date`, message: 'Must be today or earlier' });
  if (end > pc.today) issues.push({ field: `${prefix}end_date`, message: 'Must be today or earlier' });
  if (end < start)
    issues.push({ field: `${prefix}end_date`, message: 'Must not be earlier than the start date' });
}

function checkCosts(prefix: string, issues: Issue[], lineCount: number, manual: unknown) {
  if (lineCount > 0 && manual !== null && manual !== undefined)
    issues.push({ field: `${prefix}manual_cost`, message: 'Only for a service without line items' });
}

export function planCreate(
  pc: PlanContext,
  input: ServiceCreateInput,
  lk: Lookup,
  prefix = 'body.',
): Plan<ServiceTableInsert> {
  const issues: Issue[] = [];
  const day = dates(pc, prefix, issues);
  const key = objectKey(input.t, input.uid);
  const object = lk.objects.get(key);
  if (!object) issues.push({ field: `${prefix}uid`, message: 'Unknown object in this fleet' });
  const to = statusFromFlag(input.f) as Status;
  let planned: number | null = null;
  let start: number | null = null;
  let end: number | null = null;
  if (to === 'due') {
    planned = day('limit_date', input.limit_date) ?? pc.today;
    if (planned < pc.today) issues.push({ field: `${prefix}limit_date`, message: 'Must be today or later' });
  } else if (to === 'inProgress') {
    start = day('start_date', input.start_date) ?? pc.today;
    if (start > pc.today) issues.push({ field: `${prefix}start_date`, message: 'Must be today or earlier' });
  } else {
    end = day('end_date', input.end_date) ?? pc.today;
    start = day('start_date', input.start_date) ?? end;
    checkClosedDates(pc, prefix, issues, start, end);
  }
  if (input.notify_days != null && to !== 'due')
    issues.push({ field: `${prefix}notify_days`, message: 'Only for Due services' });
  checkCosts(prefix, issues, input.li?.length ?? 0, input.manual_cost);
  let assignmentId: number | null = null;
  let conflict: string | undefined;
  if (input.ivid != null) {
    if (!lk.intervals.has(input.ivid))
      issues.push({ field: `${prefix}ivid`, message: 'Unknown interval in this fleet' });
    const a = lk.assignments.get(`${input.ivid}:${key}`);
    if (a?.open && to !== 'closed') conflict = 'An open service exists for this interval and object';
    else if (a) {
      assignmentId = a.id;
      if (to !== 'closed') a.open = true;
    }
  }
  const closed = to === 'closed';
  const row: ServiceTableInsert = {
    fleet_id: pc.fleetId,
    object_type: input.t,
    object_id: input.uid,
    interval_id: input.ivid ?? null,
    assignment_id: assignmentId,
    // A Due service made by hand carries "manually" (spec §4).
    f: to === 'due' ? ServiceFlag.upcoming | ServiceFlag.manually : flagsFor(0, to),
    name: input.n,
    description: input.description ?? '',
    creator_id: pc.actorId,
    created_at: pc.now,
    updated_at: pc.now,
    start_date: start,
    end_date: end,
    planned_date: planned,
    forecast_date: null,
    limit_mileage: input.limit_mileage ?? null,
    limit_engine_hours: input.limit_engine_hours ?? null,
    last_date: null,
    last_mileage: null,
    last_engine_hours: null,
    mileage: input.mileage ?? (closed ? (object?.mileage ?? null) : null),
    engine_hours: input.engine_hours ?? (closed ? (object?.engineHours ?? null) : null),
    manual_cost: input.manual_cost == null ? null : thousandthsOf(input.manual_cost),
    notify_days: input.notify_days ?? null,
    cf: JSON.stringify(input.cf ?? []),
  };
  return { issues, conflict, row, lines: input.li, to, object };
}

export type ServiceTableInsert = Omit<ServiceRow, 'id'>;

/** An update of an open service; `lineCount` is the number of line items it has now. */
export function planUpdate(
  pc: PlanContext,
  existing: ServiceRow,
  patch: ServiceUpdateInput,
  object: ObjectState | undefined,
  lineCount: number,
  prefix = 'body.',
): Plan<Updateable<ServiceTable>> {
  const issues: Issue[] = [];
  const day = dates(pc, prefix, issues);
  const from = statusOf(existing.f);
  const to = patch.f === undefined ? from : (statusFromFlag(patch.f) as Status);
  const row: Updateable<ServiceTable> = { updated_at: pc.now };
  if (isArchived(existing.f))
    return { issues, conflict: 'The service is archived: its status is frozen', row, from, to };
  // Object type, object, interval and creator stay (PRODUCT.md "Services"): a different value is refused.
  issues.push(...changedFixedFields(patch, serviceToWire(existing, [], 0, NO_OWNER), prefix));
  if (!canTransition(from, to))
    return { issues, conflict: `A ${from} service cannot become ${to}`, row, from, to };
  row.f = flagsFor(existing.f, to);
  const limit = day('limit_date', patch.limit_date);
  const start = day('start_date', patch.start_date);
  const end = day('end_date', patch.end_date);
  if (to === 'due') {
    let planned = limit === undefined ? existing.planned_date : limit;
    // A past planned date sent back as read (an overdue service) is no change.
    if (limit != null && limit < pc.today && limit !== existing.planned_date)
      issues.push({ field: `${prefix}limit_date`, message: 'Must be today or later' });
    if (planned === null || (from !== 'due' && planned < pc.today)) planned = pc.today;
    row.planned_date = planned;
  } else if (to === 'inProgress') {
    row.start_date = start ?? (from === 'inProgress' ? existing.start_date : null) ?? pc.today;
    if (start != null && start > pc.today)
      issues.push({ field: `${prefix}start_date`, message: 'Must be today or earlier' });
  } else if (to === 'closed') {
    const e = end ?? pc.today;
    const s = start ?? existing.start_date ?? e;
    checkClosedDates(pc, prefix, issues, s, e);
    row.start_date = s;
    row.end_date = e;
    // A null (the record as read) is "not given": the object's current counters apply (PRODUCT.md
    // "Written-back records"), so the baseline reset takes them as `{f: 8}` alone does.
    row.mileage = patch.mileage ?? existing.mileage ?? object?.mileage ?? null;
    row.engine_hours = patch.engine_hours ?? existing.engine_hours ?? object?.engineHours ?? null;
  } else {
    // The archive date of a rejected service is the day of its rejection.
    row.end_date = pc.today;
  }
  if (to !== 'due') row.notify_days = null;
  // Leaving Due clears the reminder; the value sent back as read is no request for one.
  if (patch.notify_days != null && to !== 'due' && patch.notify_days !== existing.notify_days)
    issues.push({ field: `${prefix}notify_days`, message: 'Only for Due services' });
  else if (patch.notify_days !== undefined && to === 'due') row.notify_days = patch.notify_days;
  const lines = patch.li === undefined ? lineCount : patch.li.length;
  checkCosts(prefix, issues, lines, patch.manual_cost);
  if (patch.manual_cost !== undefined)
    row.manual_cost = patch.manual_cost === null ? null : thousandthsOf(patch.manual_cost);
  if (lines > 0) row.manual_cost = null;
  if (patch.n !== undefined) row.name = patch.n;
  if (patch.description !== undefined) row.description = patch.description;
  if (patch.limit_mileage !== undefined) row.limit_mileage = patch.limit_mileage;
  if (patch.limit_engine_hours !== undefined) row.limit_engine_hours = patch.limit_engine_hours;
  if (to !== 'closed' && patch.mileage !== undefined) row.mileage = patch.mileage;
  if (to !== 'closed' && patch.engine_hours !== undefined) row.engine_hours = patch.engine_hours;
  if (patch.cf !== undefined) row.cf = JSON.stringify(patch.cf);
  return { issues, row, lines: patch.li, from, to, object };
}
