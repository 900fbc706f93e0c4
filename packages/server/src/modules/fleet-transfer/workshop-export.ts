import type {
  InspectionItem,
  TransferInspection,
  TransferInspectionForm,
  TransferVehicleAssignment,
  TransferWorkOrder,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { StoredResult } from '../inspections/mappers.js';
import { group, pages } from './pages.js';
import type { FileMeta, Source, WithFiles } from './readers.js';
import { lineOut } from './records.js';

/**
 * The workshop records of the fleet export (version 6, docs/product.md "Fleet export and import"), read
 * page by page: inspection forms, inspections with their defects and images (the images as the
 * inspection's attachments, referred to by their index among them), work orders with their issues,
 * services and lines, and vehicle assignments. People by login.
 */

type Db = Kysely<Database>;
export type InspectionRecord = Omit<TransferInspection, 'attachments'>;
const INSPECTION_OWNER = 'inspection';

const n = (v: number | null) => (v === null ? null : Number(v));

/** Login of each user id among `ids`. */
async function loginsOf(db: Db, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function inspectionFormPages({ db, fid, cut }: Source): AsyncGenerator<TransferInspectionForm[]> {
  const src = pages('inspection_forms', (after, limit) =>
    db
      .selectFrom('inspection_forms')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('id', '>', after)
      .where('id', '<=', cut.inspection_forms)
      .orderBy('id')
      .limit(limit)
      .execute(),
  );
  return (async function* () {
    for await (const rows of src)
      yield rows.map((r) => ({
        id: r.id,
        name: r.name,
        builtin: r.builtin === 'dvir' ? ('dvir' as const) : null,
        items: JSON.parse(r.items) as InspectionItem[],
        created_at: Number(r.created_at),
        updated_at: Number(r.updated_at),
      }));
  })();
}

export function inspectionPages(src: Source): AsyncGenerator<WithFiles<InspectionRecord>[]> {
  const { db, fid, cut } = src;
  const rowsOf = pages('inspections', (after, limit) =>
    db
      .selectFrom('inspections')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('id', '>', after)
      .where('id', '<=', cut.inspections)
      .orderBy('id')
      .limit(limit)
      .execute(),
  );
  return (async function* () {
    for await (const rows of rowsOf) {
      const ids = rows.map((r) => r.id);
      const defects = group(
        await db
          .selectFrom('inspection_defects')
          .selectAll()
          .where('fleet_id', '=', fid)
          .where('inspection_id', 'in', ids)
          .orderBy('inspection_id')
          .orderBy('item')
          .execute(),
        (d) => d.inspection_id,
      );
      const files = group(
        (await db
          .selectFrom('attachments')
          .select(['id', 'owner_id', 'name', 'content_type', 'created_at'])
          .where('fleet_id', '=', fid)
          .where('owner_type', '=', INSPECTION_OWNER)
          .where('owner_id', 'in', ids)
          .where('id', '<=', cut.attachments)
          .orderBy('id')
          .execute()) as FileMeta[],
        (f) => f.owner_id,
      );
      const logins = await loginsOf(db, [
        ...rows.flatMap((r) => [r.submitter_id, r.ack_by]),
        ...[...defects.values()].flat().map((d) => d.cert_by),
      ]);
      const login = (v: number | null) => (v === null ? null : (logins.get(v) ?? null));
      yield rows.map((r) => {
        const own = files.get(r.id) ?? [];
        const index = (aid: number | null) => {
          const at = aid === null ? -1 : own.findIndex((f) => f.id === aid);
          return at < 0 ? null : at;
        };
        const results = (JSON.parse(r.results) as StoredResult[]).map((x) => ({ ...x, img: index(x.img) }));
        return {
          record: {
            id: r.id,
            form_id: r.form_id,
            form_name: r.form_name,
            builtin: r.builtin === 'dvir' ? ('dvir' as const) : null,
            object_type: r.object_type as 'u' | 't',
            object_id: r.object_id,
            mileage: n(r.mileage),
            engine_hours: n(r.engine_hours),
            note: r.note,
            items: JSON.parse(r.items) as InspectionItem[],
            results,
            signature: index(r.signature_id),
            submitted_at: Number(r.submitted_at),
            submitted_by: login(r.submitter_id),
            defects: (defects.get(r.id) ?? []).map((d) => ({
              item: d.item,
              severity: d.severity as TransferInspection['defects'][number]['severity'],
              issue_id: d.issue_id,
              cert: d.cert as TransferInspection['defects'][number]['cert'],
              cert_note: d.cert_note,
              cert_by: login(d.cert_by),
              cert_at: n(d.cert_at),
              cert_signature: index(d.cert_signature_id),
            })),
            ack_by: login(r.ack_by),
            ack_at: n(r.ack_at),
          },
          files: own,
        };
      });
    }
  })();
}

export function workOrderPages({ db, fid, cut }: Source): AsyncGenerator<TransferWorkOrder[]> {
  const rowsOf = pages('work_orders', (after, limit) =>
    db
      .selectFrom('work_orders')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('id', '>', after)
      .where('id', '<=', cut.work_orders)
      .orderBy('id')
      .limit(limit)
      .execute(),
  );
  return (async function* () {
    for await (const rows of rowsOf) {
      const ids = rows.map((r) => r.id);
      const issues = group(
        await db
          .selectFrom('issues')
          .select(['id', 'work_order_id'])
          .where('fleet_id', '=', fid)
          .where('work_order_id', 'in', ids)
          .where('id', '<=', cut.issues)
          .orderBy('id')
          .execute(),
        (i) => i.work_order_id,
      );
      const services = group(
        await db
          .selectFrom('work_order_services')
          .select(['work_order_id', 'service_id'])
          .where('fleet_id', '=', fid)
          .where('work_order_id', 'in', ids)
          .where('service_id', '<=', cut.services)
          .orderBy('work_order_id')
          .orderBy('position')
          .execute(),
        (s) => s.work_order_id,
      );
      const lines = group(
        await db
          .selectFrom('work_order_line_items')
          .selectAll()
          .where('fleet_id', '=', fid)
          .where('work_order_id', 'in', ids)
          .orderBy('work_order_id')
          .orderBy('position')
          .execute(),
        (l) => l.work_order_id,
      );
      const logins = await loginsOf(
        db,
        rows.flatMap((r) => [r.assignee_id, r.created_by]),
      );
      const login = (v: number | null) => (v === null ? null : (logins.get(v) ?? null));
      yield rows.map((r) => ({
        id: r.id,
        object_type: r.object_type as 'u' | 't',
        object_id: r.object_id,
        title: r.title,
        description: r.description,
        status: r.status as TransferWorkOrder['status'],
        assignee: login(r.assignee_id),
        created_by: login(r.created_by),
        scheduled_start: n(r.scheduled_start),
        scheduled_end: n(r.scheduled_end),
        actual_start: n(r.actual_start),
        actual_end: n(r.actual_end),
        mileage: n(r.mileage),
        engine_hours: n(r.engine_hours),
        downtime_start: n(r.downtime_start),
        service_id: r.service_id !== null && r.service_id <= cut.services ? r.service_id : null,
        issue_ids: (issues.get(r.id) ?? []).map((i) => i.id),
        service_ids: (services.get(r.id) ?? []).map((s) => s.service_id),
        li: (lines.get(r.id) ?? []).map(lineOut),
        created_at: Number(r.created_at),
        updated_at: Number(r.updated_at),
      }));
    }
  })();
}

export function vehicleAssignmentPages({
  db,
  fid,
  cut,
}: Source): AsyncGenerator<TransferVehicleAssignment[]> {
  const rowsOf = pages('vehicle_assignments', (after, limit) =>
    db
      .selectFrom('vehicle_assignments')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('id', '>', after)
      .where('id', '<=', cut.vehicle_assignments)
      .orderBy('id')
      .limit(limit)
      .execute(),
  );
  return (async function* () {
    for await (const rows of rowsOf) {
      const logins = await loginsOf(
        db,
        rows.flatMap((r) => [r.user_id, r.created_by]),
      );
      yield rows.flatMap((r) => {
        const driver = logins.get(r.user_id);
        if (driver === undefined) return [];
        return [
          {
            id: r.id,
            unit_id: r.unit_id,
            driver,
            start_at: Number(r.start_at),
            end_at: n(r.end_at),
            start_mileage: Number(r.start_mileage),
            start_engine_hours: Number(r.start_engine_hours),
            end_mileage: n(r.end_mileage),
            end_engine_hours: n(r.end_engine_hours),
            created_at: Number(r.created_at),
            created_by: r.created_by === null ? null : (logins.get(r.created_by) ?? null),
          },
        ];
      });
    }
  })();
}
