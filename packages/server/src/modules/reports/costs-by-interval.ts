import { localDate } from '@fleetkeep/core';
import { bucketOf, type Ctx, closedInPeriod, costOf, intervalNames, type Row, sumInto } from './shared.js';

/** Per interval of the closed services of the period; one-time services (no interval) in one row. */
export async function costsByInterval(c: Ctx): Promise<Row[]> {
  const services = await closedInPeriod(c);
  const names = await intervalNames(c, services);
  const map = new Map<string, Row>();
  for (const s of services) {
    const period = bucketOf(c, localDate(c.fleet.tz, s.end_date as number));
    const name = s.ivid === null ? null : (names.get(s.ivid) ?? `#${s.ivid}`);
    sumInto(
      map,
      `${period}|${s.ivid ?? 0}`,
      {
        period,
        label: name ?? '',
        // One-time services after the intervals.
        sort: name === null ? '\uffff' : `${name}\u0000${s.ivid}`,
        values: { interval: name, services_count: 1, services_cost: costOf(s) },
      },
      ['services_count', 'services_cost'],
    );
  }
  return [...map.values()];
}
