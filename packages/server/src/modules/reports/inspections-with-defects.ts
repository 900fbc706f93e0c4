import { type InspectionItem, itemReportValue, localDate } from '@fleetkeep/core';
import { bucketOf, type Ctx, nameOf, type Row } from './shared.js';

/**
 * "Inspections with defects" (docs/product.md "Inspections"): one row per defect of the inspections
 * submitted in the period, with the object, the form, the failed item, its severity and its
 * certification. Units and trailers only (inspections have no drivers).
 */
export async function inspectionsWithDefects(c: Ctx): Promise<Row[]> {
  if (c.objects.ot === 'd') return [];
  let q = c.db
    .selectFrom('inspection_defects as d')
    .innerJoin('inspections as i', 'i.id', 'd.inspection_id')
    .leftJoin('users as u', 'u.id', 'd.cert_by')
    .select([
      'd.id',
      'd.item',
      'd.severity',
      'd.cert',
      'i.object_type',
      'i.object_id',
      'i.form_name',
      'i.builtin',
      'i.items',
      'i.submitted_at',
      'u.name as by_name',
      'u.full_name as by_full_name',
    ])
    .where('d.fleet_id', '=', c.fleet.id)
    .where('i.fleet_id', '=', c.fleet.id)
    .where('i.submitted_at', '>=', c.period.first)
    .where('i.submitted_at', '<=', c.period.last);
  if (c.objects.ot) q = q.where('i.object_type', '=', c.objects.ot);
  if (c.objects.ids.length) q = q.where('i.object_id', 'in', c.objects.ids);
  const rows = await q.execute();
  return rows.map((r) => {
    const ot = r.object_type as 'u' | 't';
    const date = localDate(c.fleet.tz, r.submitted_at);
    const object = nameOf(c, ot, r.object_id);
    const item = (JSON.parse(r.items) as InspectionItem[])[r.item];
    return {
      period: bucketOf(c, date),
      label: object,
      sort: `${date}\u0000${object}\u0000${String(r.id).padStart(10, '0')}`,
      ot,
      oid: r.object_id,
      values: {
        date,
        object_type: ot,
        object,
        form: r.builtin ? 'DVIR' : r.form_name,
        item: item ? itemReportValue(item) : `#${r.item + 1}`,
        severity: r.severity,
        certification: r.cert,
        certified_by: r.cert === null ? null : r.by_full_name || r.by_name || null,
      },
    };
  });
}
