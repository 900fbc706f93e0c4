import { localDate } from '@fleetkeep/core';
import { bucketOf, type Ctx, closedInPeriod, costOf, intervalNames, nameOf, type Row } from './shared.js';

/** Plain decimal text of thousandths ('2', '1.5'), for the line-item list of a service. */
const plain = (n: number) => String(n);

/** The closed services of the period, each with its line items. */
export async function servicesPerformed(c: Ctx): Promise<Row[]> {
  const services = await closedInPeriod(c);
  const names = await intervalNames(c, services);
  return services.map((s) => {
    const date = localDate(c.fleet.tz, s.end_date as number);
    const object = nameOf(c, s.t, s.uid);
    return {
      period: bucketOf(c, date),
      label: object,
      sort: `${date}\u0000${object}\u0000${String(s.id).padStart(10, '0')}`,
      ot: s.t,
      oid: s.uid,
      values: {
        date,
        object_type: s.t,
        object,
        service: s.n,
        interval: s.ivid === null ? null : (names.get(s.ivid) ?? `#${s.ivid}`),
        mileage: s.mileage,
        engine_hours: s.engine_hours,
        line_items: s.li.length ? s.li.map((l) => `${l.n} × ${plain(l.q)}`).join('; ') : null,
        services_cost: costOf(s),
      },
    };
  });
}
