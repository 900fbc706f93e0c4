import { linesTotalThousandths, localDate } from '@fleetkeep/core';
import { DAY } from '../../context.js';
import { bucketOf, type Ctx, nameOf, type Row } from './shared.js';

/**
 * The work orders completed in the period (docs/product.md "Work orders"): object, title, assignee,
 * the issues and services it took, its line items' cost and its downtime in hours (thousandths, as the
 * `number` kind is), by completion day in the fleet zone.
 */
export async function workOrdersReport(c: Ctx): Promise<Row[]> {
  let q = c.db
    .selectFrom('work_orders as w')
    .leftJoin('users as u', 'u.id', 'w.assignee_id')
    .select([
      'w.id',
      'w.object_type',
      'w.object_id',
      'w.title',
      'w.actual_end',
      'w.downtime_start',
      'u.name',
      'u.full_name',
    ])
    .where('w.fleet_id', '=', c.fleet.id)
    .where('w.status', '=', 'completed')
    .where('w.actual_end', '>=', c.period.first)
    .where('w.actual_end', '<', c.period.last + DAY);
  if (c.objects.ot) q = q.where('w.object_type', '=', c.objects.ot);
  if (c.objects.ids.length) q = q.where('w.object_id', 'in', c.objects.ids);
  const orders = await q.orderBy('w.actual_end').orderBy('w.id').execute();
  if (orders.length === 0) return [];
  const ids = orders.map((o) => o.id);
  const issues = new Map<number, number>();
  const services = new Map<number, number>();
  const lines = new Map<number, { qty: number; cost: number }[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const r of await c.db
      .selectFrom('issues')
      .select(['work_order_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fleet_id', '=', c.fleet.id)
      .where('work_order_id', 'in', part)
      .groupBy('work_order_id')
      .execute())
      issues.set(r.work_order_id!, Number(r.n));
    for (const r of await c.db
      .selectFrom('work_order_services')
      .select(['work_order_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fleet_id', '=', c.fleet.id)
      .where('work_order_id', 'in', part)
      .groupBy('work_order_id')
      .execute())
      services.set(r.work_order_id, Number(r.n));
    for (const r of await c.db
      .selectFrom('work_order_line_items')
      .select(['work_order_id', 'qty', 'cost'])
      .where('fleet_id', '=', c.fleet.id)
      .where('work_order_id', 'in', part)
      .execute()) {
      const list = lines.get(r.work_order_id) ?? [];
      list.push({ qty: Number(r.qty), cost: Number(r.cost) });
      lines.set(r.work_order_id, list);
    }
  }
  return orders.map((o) => {
    const end = Number(o.actual_end);
    const date = localDate(c.fleet.tz, end);
    const object = nameOf(c, o.object_type, o.object_id);
    const start = o.downtime_start === null ? null : Number(o.downtime_start);
    return {
      period: bucketOf(c, date),
      label: object,
      sort: `${date}\u0000${object}\u0000${String(o.id).padStart(10, '0')}`,
      ot: o.object_type as 'u' | 't',
      oid: o.object_id,
      values: {
        date,
        object_type: o.object_type,
        object,
        work_order: o.title,
        assignee: o.full_name || o.name || null,
        issues_count: issues.get(o.id) ?? 0,
        services_count: services.get(o.id) ?? 0,
        cost: linesTotalThousandths(lines.get(o.id) ?? []),
        // Hours in thousandths: seconds / 3600 × 1000.
        downtime_hours: start === null ? null : Math.round(Math.max(0, end - start) / 3.6),
      },
    };
  });
}
