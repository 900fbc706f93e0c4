import {
  downtimeSeconds,
  downtimeStart,
  fromThousandths,
  type IssueStatus,
  isWorkOrderOverdue,
  linesTotalThousandths,
  priorityOfRank,
  type WorkOrderStatus,
  type WorkOrderWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { now } from '../../context.js';
import { chunks, namesOf } from '../../db/lookups.js';
import type { Database, WorkOrderRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { lineToWire } from '../maintenance-wire.js';

/**
 * Work orders as read (docs/product.md "Work orders"): rows to wires with the object's name, the
 * people, the linked issues and services, the line items and their total, and the downtime, each
 * looked up once per batch of rows.
 */

/** The work order of the fleet; one of another fleet answers like a missing one (404). */
export async function loadWorkOrder(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
): Promise<WorkOrderRow> {
  const row = await db
    .selectFrom('work_orders')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Work order not found');
  return row;
}

const num = (v: number | null) => (v === null ? null : Number(v));

/** Rows of one fleet to wires, in their order; `at` is the "now" of running downtimes and overdue. */
export async function workOrderWires(
  db: Kysely<Database>,
  fleetId: number,
  rows: WorkOrderRow[],
  at = now(),
): Promise<WorkOrderWire[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const units = await namesOf(
    db,
    'units',
    rows.filter((r) => r.object_type === 'u').map((r) => r.object_id),
  );
  const trailers = await namesOf(
    db,
    'trailers',
    rows.filter((r) => r.object_type === 't').map((r) => r.object_id),
  );
  const people = await namesOf(
    db,
    'users',
    rows.flatMap((r) => [r.assignee_id, r.created_by]).filter((v): v is number => v !== null),
  );
  const issues = new Map<number, WorkOrderWire['issues']>();
  const services = new Map<number, WorkOrderWire['services']>();
  const lines = new Map<
    number,
    {
      name: string;
      kind: number;
      qty: number;
      cost: number;
      part_id: number | null;
      location_id: number | null;
    }[]
  >();
  for (const part of chunks(ids)) {
    for (const r of await db
      .selectFrom('issues')
      .select(['id', 'work_order_id', 'title', 'priority', 'status', 'reported_at'])
      .where('fleet_id', '=', fleetId)
      .where('work_order_id', 'in', part)
      // By work order first: SQLite then reads the index (fleet_id, work_order_id) instead of walking
      // every issue of the fleet along (fleet_id, reported_at) to save a sort (bench/workshop.mjs).
      .orderBy('work_order_id')
      .orderBy('reported_at')
      .orderBy('id')
      .execute()) {
      const list = issues.get(r.work_order_id!) ?? [];
      list.push({
        id: r.id,
        title: r.title,
        priority: priorityOfRank(r.priority),
        status: r.status as IssueStatus,
        reported_at: Number(r.reported_at),
      });
      issues.set(r.work_order_id!, list);
    }
    for (const r of await db
      .selectFrom('work_order_services as l')
      .innerJoin('services as s', 's.id', 'l.service_id')
      .select([
        'l.work_order_id',
        's.id',
        's.name',
        's.f',
        's.interval_id',
        's.planned_date',
        's.limit_mileage',
        's.limit_engine_hours',
      ])
      .where('l.fleet_id', '=', fleetId)
      .where('l.work_order_id', 'in', part)
      .orderBy('l.position')
      .execute()) {
      const list = services.get(r.work_order_id) ?? [];
      list.push({
        id: r.id,
        n: r.name,
        f: r.f,
        ivid: r.interval_id,
        limit_date: num(r.planned_date),
        limit_mileage: num(r.limit_mileage),
        limit_engine_hours: num(r.limit_engine_hours),
      });
      services.set(r.work_order_id, list);
    }
    for (const r of await db
      .selectFrom('work_order_line_items')
      .select(['work_order_id', 'name', 'kind', 'qty', 'cost', 'part_id', 'location_id'])
      .where('fleet_id', '=', fleetId)
      .where('work_order_id', 'in', part)
      .orderBy('work_order_id')
      .orderBy('position')
      .execute()) {
      const list = lines.get(r.work_order_id) ?? [];
      list.push({
        name: r.name,
        kind: r.kind,
        qty: Number(r.qty),
        cost: Number(r.cost),
        part_id: r.part_id,
        location_id: r.location_id,
      });
      lines.set(r.work_order_id, list);
    }
  }
  const person = (id: number | null) => (id === null ? null : { id, nm: people.get(id) ?? '' });
  return rows.map((r) => {
    const status = r.status as WorkOrderStatus;
    const linked = issues.get(r.id) ?? [];
    const li = lines.get(r.id) ?? [];
    const actualStart = num(r.actual_start);
    const actualEnd = num(r.actual_end);
    const start =
      num(r.downtime_start) ??
      downtimeStart(
        linked.filter((i) => i.status === 'workorder').map((i) => i.reported_at),
        actualStart,
      );
    return {
      id: r.id,
      object_type: r.object_type as 'u' | 't',
      object_id: r.object_id,
      object_name: (r.object_type === 'u' ? units : trailers).get(r.object_id) ?? '',
      title: r.title,
      description: r.description,
      status,
      assignee: person(r.assignee_id),
      created_by: person(r.created_by),
      scheduled_start: num(r.scheduled_start),
      scheduled_end: num(r.scheduled_end),
      actual_start: actualStart,
      actual_end: actualEnd,
      mileage: num(r.mileage),
      engine_hours: num(r.engine_hours),
      issues: linked,
      services: services.get(r.id) ?? [],
      li: li.map(lineToWire),
      total_cost: fromThousandths(linesTotalThousandths(li)),
      downtime_start: start,
      downtime: downtimeSeconds(start, status, actualEnd, at),
      overdue: isWorkOrderOverdue({ status, scheduledEnd: num(r.scheduled_end) }, at),
      service_id: r.service_id,
      created: Number(r.created_at),
      updated: Number(r.updated_at),
    };
  });
}

export async function workOrderWireById(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
): Promise<WorkOrderWire> {
  return (await workOrderWires(db, fleetId, [await loadWorkOrder(db, fleetId, id)]))[0]!;
}
