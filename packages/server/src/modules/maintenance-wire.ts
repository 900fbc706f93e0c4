import type {
  IntervalAssignmentWire,
  IntervalBaseWire,
  IntervalTimeUnit,
  IntervalWire,
  LineItemWire,
  LineWire,
  ObjectType,
  ServiceWire,
} from '@fleetkeep/core';
import { fromThousandths, multiplyThousandths, toThousandths } from '@fleetkeep/core';
import type { AssignmentRow, IntervalRow, LineItemRow, ServiceRow } from '../db/schema.js';
import { round3 } from './fleets/mappers.js';

/**
 * Wire shapes of the maintenance core, shared by the intervals, services, line-items and engine
 * modules. Names follow spec §3 and DESIGN §5 where given, readable snake_case otherwise. Distances
 * are km and engine hours hours on the wire as in the database; the client converts for fleets in miles.
 * Money and quantities are numbers with at most 3 decimals (stored as integer thousandths).
 */

export type { IntervalWire, LineWire, ObjectType };

/** A line item of an interval or a service: name, kind (1 labour, 2 part), quantity, unit cost. */
export function lineToWire(row: {
  name: string;
  kind: number;
  qty: number;
  cost: number;
  part_id?: number | null;
  location_id?: number | null;
}): LineWire {
  const wire: LineWire = {
    n: row.name,
    t: row.kind,
    q: fromThousandths(row.qty),
    c: fromThousandths(row.cost),
  };
  if (row.part_id != null && row.location_id != null) {
    wire.pid = row.part_id;
    wire.slid = row.location_id;
  }
  return wire;
}

/** A library item (spec §3 "Line item"; kinds task=1, part=2, fuel=4). */
export function libraryItemToWire(row: LineItemRow): LineItemWire {
  return { id: row.id, n: row.name, t: row.kind, c: fromThousandths(row.cost) };
}

/** An assignment entry of an interval's `u` list (DESIGN §5). */
export function assignmentToWire(row: AssignmentRow): IntervalAssignmentWire {
  return {
    id: row.object_id,
    t: row.object_type as ObjectType,
    lcnm: round3(row.lcnm),
    lceh: round3(row.lceh),
    ltm: row.ltm,
    cnt: row.cnt,
  };
}

/** One object's baseline for an interval, as `GET …/{units|drivers|trailers}/{id}/bases` lists it. */
export function baseToWire(row: AssignmentRow): IntervalBaseWire {
  return {
    ivid: row.interval_id,
    lcnm: round3(row.lcnm),
    lceh: round3(row.lceh),
    ltm: row.ltm,
    cnt: row.cnt,
  };
}

export function intervalToWire(
  row: IntervalRow,
  assignments: AssignmentRow[],
  lines: LineWire[],
): IntervalWire {
  return {
    id: row.id,
    n: row.name,
    description: row.description,
    cnme: row.cnme as 0 | 1,
    cnmd: row.cnmd,
    cnmo: row.cnmo,
    cnehe: row.cnehe as 0 | 1,
    cnehd: row.cnehd,
    cneho: row.cneho,
    de: row.de as 0 | 1,
    dd: row.dd,
    du: row.du as IntervalTimeUnit,
    do: row.do,
    u: assignments.map(assignmentToWire),
    li: lines,
    c: row.creator_id,
    tm: row.updated_at,
  };
}

/** Current counters and in-progress marker of a service's owner, for the wire. */
export interface OwnerState {
  mileage: number | null;
  engineHours: number | null;
  ins: number;
}

/**
 * A service (spec §3 "Service"). `total_cost` is the sum of its line items, or the hand-entered total
 * when it has none (PRODUCT.md "Services"). A caller that read the line items as stored passes their
 * cost in thousandths (each quantity × cost rounded, as below), so that the wire numbers are not converted back.
 */
export function serviceToWire(
  row: ServiceRow,
  lines: LineWire[],
  attachments: number,
  owner: OwnerState,
  storedLinesCost?: number,
): ServiceWire {
  const linesCost =
    storedLinesCost ??
    lines.reduce((sum, l) => sum + multiplyThousandths(toThousandths(l.q) ?? 0, toThousandths(l.c) ?? 0), 0);
  const total =
    lines.length > 0
      ? fromThousandths(linesCost)
      : row.manual_cost === null
        ? 0
        : fromThousandths(row.manual_cost);
  return {
    id: row.id,
    uid: row.object_id,
    t: row.object_type as ObjectType,
    f: row.f,
    n: row.name,
    description: row.description,
    cid: row.creator_id,
    ivid: row.interval_id,
    eid: row.assignment_id,
    tm: row.created_at,
    updated: row.updated_at,
    start_date: row.start_date,
    end_date: row.end_date,
    limit_date: row.planned_date,
    forecast_date: row.forecast_date,
    limit_mileage: row.limit_mileage,
    limit_engine_hours: row.limit_engine_hours,
    last_date: row.last_date,
    last_mileage: row.last_mileage,
    last_engine_hours: row.last_engine_hours,
    current_mileage: owner.mileage === null ? null : round3(owner.mileage),
    current_engine_hours: owner.engineHours === null ? null : round3(owner.engineHours),
    mileage: row.mileage,
    engine_hours: row.engine_hours,
    total_cost: total,
    manual_cost: row.manual_cost === null ? null : fromThousandths(row.manual_cost),
    notify_days: row.notify_days,
    li: lines,
    ats: attachments,
    ins: owner.ins ? 1 : 0,
    cf: JSON.parse(row.cf || '[]') as { id: number; v: string }[],
  };
}
