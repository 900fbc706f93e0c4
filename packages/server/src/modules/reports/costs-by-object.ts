import { localDate, type ObjectType } from '@fleetkeep/core';
import { bucketOf, type Ctx, costDays, nameOf, type Row, sumInto } from './shared.js';

/** Per object (cost_days rows of the period, objects of every type): closed services count and cost. */
export async function costsByObject(c: Ctx): Promise<Row[]> {
  const rows = await costDays(c);
  const map = new Map<string, Row>();
  for (const r of rows) {
    if (r.servicesCount === 0 && r.servicesCost === 0) continue;
    const period = bucketOf(c, localDate(c.fleet.tz, r.day));
    const label = nameOf(c, r.ot, r.oid);
    sumInto(
      map,
      `${period}|${r.ot}:${r.oid}`,
      {
        period,
        label,
        sort: `${label}\u0000${r.ot}${r.oid}`,
        ot: r.ot as ObjectType,
        oid: r.oid,
        values: {
          object_type: r.ot,
          object: label,
          services_count: r.servicesCount,
          services_cost: r.servicesCost,
        },
      },
      ['services_count', 'services_cost'],
    );
  }
  return [...map.values()];
}
