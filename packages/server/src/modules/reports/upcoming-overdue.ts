import { localDate } from '@fleetkeep/core';
import { round3 } from '../fleets/mappers.js';
import { loadWires } from '../services/load.js';
import { bucketOf, type Ctx, FINISHED_BITS, intervalNames, nameOf, objectScope, type Row } from './shared.js';

/** Status word of an open service (spec §4 flags). */
function openStatus(f: number) {
  if (f & 2) return 'in_progress';
  if (f & 4) return 'overdue';
  return 'due';
}

const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : round3(a - b));

/** Open services (Due, overdue, In progress) planned on or before `to`, or with no planned date. */
export async function upcomingOverdue(c: Ctx): Promise<Row[]> {
  const services = await loadWires(
    c.db,
    c.ops,
    c.fleet.id,
    objectScope(c, (qb) =>
      qb
        .where(FINISHED_BITS, '=', 0)
        .where((eb) => eb.or([eb('planned_date', 'is', null), eb('planned_date', '<=', c.period.last)])),
    ),
  );
  const names = await intervalNames(c, services);
  return services.map((s) => {
    const planned = s.limit_date === null ? null : localDate(c.fleet.tz, s.limit_date);
    const object = nameOf(c, s.t, s.uid);
    return {
      period: planned === null ? null : bucketOf(c, planned),
      label: object,
      sort: `${planned ?? '9999'}\u0000${object}\u0000${String(s.id).padStart(10, '0')}`,
      ot: s.t,
      oid: s.uid,
      values: {
        planned_date: planned,
        object_type: s.t,
        object,
        service: s.n,
        interval: s.ivid === null ? null : (names.get(s.ivid) ?? `#${s.ivid}`),
        status: openStatus(s.f),
        limit_mileage: s.limit_mileage,
        remaining_mileage: minus(s.limit_mileage, s.current_mileage),
        limit_engine_hours: s.limit_engine_hours,
        remaining_engine_hours: minus(s.limit_engine_hours, s.current_engine_hours),
      },
    };
  });
}
