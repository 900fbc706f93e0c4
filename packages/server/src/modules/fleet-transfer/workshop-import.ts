import type { TransferInspection } from '@fleetkeep/core';
import type { InsertObject } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ensureBuiltinForm } from '../inspections/forms.js';
import { type Doc, membersByName, objectOf, type Run } from './run.js';

/**
 * The import of the workshop records (version 6, docs/product.md "Fleet export and import"), after the
 * services and issues (their id maps): inspection forms (the built-in DVIR and forms of the same name
 * are the target fleet's own), inspections with their images, defects, certification and
 * acknowledgement (a defect's issue and the issue's inspection linked again), work orders with their
 * lines, issues (each issue's status as in the document) and services, and vehicle assignments (a
 * driver by login who is no member of the target fleet, or a spell that overlaps one of the unit there,
 * is skipped). People by login, else the importing user. These are history: the import records no
 * domain events for them (no notification of an assignment or a failed inspection of the past).
 */

const INSPECTION_OWNER = 'inspection';

export async function importWorkshop(run: Run, doc: Doc): Promise<void> {
  const total =
    doc.inspection_forms.length +
    doc.inspections.length +
    doc.work_orders.length +
    doc.vehicle_assignments.length;
  if (total === 0) return;
  const members = await membersByName(run);
  const userOf = (name: string | null) => (name === null ? null : (members.get(name) ?? run.actor.userId));
  const forms = await importForms(run, doc);
  for (const x of doc.inspections) await importInspection(run, x, forms, userOf);
  await importWorkOrders(run, doc, members, userOf);
  await importVehicleAssignments(run, doc, members, userOf);
}

async function importForms(run: Run, doc: Doc): Promise<Map<number, number>> {
  const { trx, fleet } = run;
  const out = new Map<number, number>();
  if (doc.inspection_forms.length === 0) return out;
  await ensureBuiltinForm(trx, fleet.id);
  const existing = await trx
    .selectFrom('inspection_forms')
    .select(['id', 'name', 'builtin'])
    .where('fleet_id', '=', fleet.id)
    .execute();
  for (const f of doc.inspection_forms) {
    const same = existing.find((e) =>
      f.builtin ? e.builtin === f.builtin : e.builtin === null && e.name === f.name,
    );
    if (same) {
      out.set(f.id, same.id);
      run.matched.inspection_forms++;
      continue;
    }
    const { id } = await trx
      .insertInto('inspection_forms')
      .values({
        fleet_id: fleet.id,
        name: f.name,
        builtin: null,
        items: JSON.stringify(f.items),
        created_at: f.created_at,
        updated_at: f.updated_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    out.set(f.id, id);
    run.created.inspection_forms++;
  }
  return out;
}

async function importInspection(
  run: Run,
  x: TransferInspection,
  forms: Map<number, number>,
  userOf: (name: string | null) => number | null,
) {
  const { trx, fleet, actor } = run;
  const { id } = await trx
    .insertInto('inspections')
    .values({
      fleet_id: fleet.id,
      form_id: x.form_id === null ? null : (forms.get(x.form_id) ?? null),
      form_name: x.form_name,
      builtin: x.builtin,
      object_type: x.object_type,
      object_id: objectOf(run, x.object_type, x.object_id),
      mileage: x.mileage,
      engine_hours: x.engine_hours,
      note: x.note,
      items: JSON.stringify(x.items),
      results: '[]',
      signature_id: null,
      submitted_at: x.submitted_at,
      submitter_id: userOf(x.submitted_by),
      defects: x.defects.length,
      ack_by: userOf(x.ack_by),
      ack_at: x.ack_at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The images first: the results, the signature and the certifications name them by their new ids.
  const images: number[] = [];
  for (const f of x.attachments) {
    const data = Buffer.from(f.data, 'base64');
    const row = await trx
      .insertInto('attachments')
      .values({
        fleet_id: fleet.id,
        owner_type: INSPECTION_OWNER,
        owner_id: id,
        name: f.name,
        content_type: f.content_type,
        size: data.length,
        data,
        created_at: f.created_at,
        creator_id: actor.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    images.push(row.id);
    run.created.attachments++;
  }
  const image = (at: number | null) => (at === null ? null : (images[at] ?? null));
  await trx
    .updateTable('inspections')
    .set({
      results: JSON.stringify(x.results.map((r) => ({ ...r, img: image(r.img) }))),
      signature_id: image(x.signature),
    })
    .where('id', '=', id)
    .execute();
  for (const d of x.defects) {
    const issueId = d.issue_id === null ? null : (run.maps.issues.get(d.issue_id) ?? null);
    await trx
      .insertInto('inspection_defects')
      .values({
        fleet_id: fleet.id,
        inspection_id: id,
        item: d.item,
        severity: d.severity,
        issue_id: issueId,
        cert: d.cert,
        cert_note: d.cert_note,
        cert_by: userOf(d.cert_by),
        cert_at: d.cert_at,
        cert_signature_id: image(d.cert_signature),
      })
      .execute();
    if (issueId !== null)
      await trx.updateTable('issues').set({ inspection_id: id }).where('id', '=', issueId).execute();
  }
  run.created.inspections++;
}

async function importWorkOrders(
  run: Run,
  doc: Doc,
  members: Map<string, number>,
  userOf: (name: string | null) => number | null,
) {
  const { trx, fleet } = run;
  const issueStatus = new Map(doc.issues.map((i) => [i.id, i.status]));
  for (const w of doc.work_orders) {
    const { id } = await trx
      .insertInto('work_orders')
      .values({
        fleet_id: fleet.id,
        object_type: w.object_type,
        object_id: objectOf(run, w.object_type, w.object_id),
        title: w.title,
        description: w.description,
        status: w.status,
        // The assignee must be a member: someone unknown in the target fleet leaves it unassigned.
        assignee_id: w.assignee === null ? null : (members.get(w.assignee) ?? null),
        created_by: userOf(w.created_by),
        scheduled_start: w.scheduled_start,
        scheduled_end: w.scheduled_end,
        actual_start: w.actual_start,
        actual_end: w.actual_end,
        mileage: w.mileage,
        engine_hours: w.engine_hours,
        downtime_start: w.downtime_start,
        service_id: w.service_id === null ? null : (run.maps.services.get(w.service_id) ?? null),
        created_at: w.created_at,
        updated_at: w.updated_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const services: InsertObject<Database, 'work_order_services'>[] = [];
    for (const sid of w.service_ids) {
      const mapped = run.maps.services.get(sid);
      // A service the import skipped (its interval already had an open one in the target fleet).
      if (mapped !== undefined)
        services.push({
          work_order_id: id,
          service_id: mapped,
          fleet_id: fleet.id,
          position: services.length,
        });
    }
    if (services.length) await trx.insertInto('work_order_services').values(services).execute();
    if (w.li.length)
      await trx
        .insertInto('work_order_line_items')
        .values(w.li.map((l, position) => ({ work_order_id: id, fleet_id: fleet.id, position, ...l })))
        .execute();
    for (const iid of w.issue_ids) {
      const mapped = run.maps.issues.get(iid);
      if (mapped === undefined) continue;
      // The issue import opened "in a work order" issues again; the work order is here now.
      await trx
        .updateTable('issues')
        .set({ work_order_id: id, status: issueStatus.get(iid) ?? 'open' })
        .where('id', '=', mapped)
        .execute();
    }
    run.created.work_orders++;
  }
}

async function importVehicleAssignments(
  run: Run,
  doc: Doc,
  members: Map<string, number>,
  userOf: (name: string | null) => number | null,
) {
  const { trx, fleet } = run;
  for (const a of doc.vehicle_assignments) {
    const driver = members.get(a.driver);
    const unit = run.maps.units.get(a.unit_id)!;
    const clash =
      driver === undefined
        ? null
        : await trx
            .selectFrom('vehicle_assignments')
            .select('id')
            .where('fleet_id', '=', fleet.id)
            .where('unit_id', '=', unit)
            .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', a.start_at)]))
            .$if(a.end_at !== null, (q) => q.where('start_at', '<', a.end_at!))
            .executeTakeFirst();
    if (driver === undefined || clash) {
      run.skipped.vehicle_assignments++;
      continue;
    }
    await trx
      .insertInto('vehicle_assignments')
      .values({
        fleet_id: fleet.id,
        unit_id: unit,
        user_id: driver,
        start_at: a.start_at,
        end_at: a.end_at,
        start_mileage: a.start_mileage,
        start_engine_hours: a.start_engine_hours,
        end_mileage: a.end_mileage,
        end_engine_hours: a.end_engine_hours,
        created_at: a.created_at,
        created_by: userOf(a.created_by),
      })
      .execute();
    run.created.vehicle_assignments++;
  }
}
