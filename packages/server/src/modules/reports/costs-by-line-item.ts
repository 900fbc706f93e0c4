import { localDate, multiplyThousandths, toThousandths } from '@fleetkeep/core';
import { bucketOf, type Ctx, closedInPeriod, type Row } from './shared.js';

/** Per line item (name and kind) of the closed services of the period: quantity, services, cost. */
export async function costsByLineItem(c: Ctx): Promise<Row[]> {
  const services = await closedInPeriod(c);
  const map = new Map<string, Row & { ids: Set<number> }>();
  for (const s of services) {
    const period = bucketOf(c, localDate(c.fleet.tz, s.end_date as number));
    for (const l of s.li) {
      const qty = toThousandths(l.q) ?? 0;
      const cost = multiplyThousandths(qty, toThousandths(l.c) ?? 0); // as a service total
      const key = `${period}|${l.t}|${l.n}`;
      const have = map.get(key);
      if (have) {
        have.values.quantity = Number(have.values.quantity) + qty;
        have.values.cost = Number(have.values.cost) + cost;
        have.ids.add(s.id);
        have.values.services_count = have.ids.size;
      } else
        map.set(key, {
          period,
          label: l.n,
          sort: `${l.n}\u0000${l.t}`,
          ids: new Set([s.id]),
          values: { line_item: l.n, line_type: l.t, quantity: qty, services_count: 1, cost },
        });
    }
  }
  return [...map.values()].map(({ ids: _ids, ...row }) => row);
}
