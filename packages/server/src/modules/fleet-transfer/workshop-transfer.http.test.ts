import { ACL_ALL, FLEET_TRANSFER_VERSION, type FleetTransferDocument } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoInspections } from '../../demo/inspections.js';
import {
  accountOf,
  type Client,
  createFleet,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * The workshop records in the fleet export (version 6, docs/product.md "Fleet export and import"): the
 * demo fleet, with a completed work order of an issue and its Due service added here, goes out with its
 * inspection forms, inspections (defects, certification, acknowledgement, images), work orders (issues,
 * services, lines) and vehicle assignments; imported into an empty fleet whose members have the same
 * logins, its export holds the same records modulo ids; a version 5 document still imports.
 */

type Doc = FleetTransferDocument;

/** The workshop collections with every id replaced by what it names. */
function workshop(doc: Doc) {
  const unit = new Map(doc.units.map((u) => [u.id, u.name]));
  const trailer = new Map(doc.trailers.map((p) => [p.id, p.name]));
  const object = (t: 'u' | 't', id: number) => `${t}:${(t === 'u' ? unit : trailer).get(id)}`;
  const form = new Map(doc.inspection_forms.map((f) => [f.id, f.builtin ?? f.name]));
  const issue = new Map(doc.issues.map((i) => [i.id, `${i.title}@${i.reported_at}`]));
  const service = new Map([...doc.services, ...doc.archive].map((s) => [s.id, `${s.name}@${s.created_at}`]));
  const sort = <T>(list: T[]) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    inspection_forms: sort(
      doc.inspection_forms.map(({ id: _id, created_at: _c, updated_at: _u, ...f }) => f),
    ),
    inspections: sort(
      doc.inspections.map(({ id: _id, form_id, object_id, defects, ...x }) => ({
        ...x,
        form: form_id === null ? null : form.get(form_id),
        object: object(x.object_type, object_id),
        defects: defects.map(({ issue_id, ...d }) => ({
          ...d,
          issue: issue_id === null ? null : issue.get(issue_id),
        })),
      })),
    ),
    work_orders: sort(
      doc.work_orders.map(({ id: _id, object_id, issue_ids, service_ids, service_id, ...w }) => ({
        ...w,
        object: object(w.object_type, object_id),
        issues: issue_ids.map((i) => issue.get(i)),
        services: service_ids.map((s) => service.get(s)),
        service: service_id === null ? null : service.get(service_id),
      })),
    ),
    vehicle_assignments: sort(
      doc.vehicle_assignments.map(({ id: _id, unit_id, ...a }) => ({ ...a, unit: unit.get(unit_id) })),
    ),
    issues: sort(doc.issues.map((i) => `${i.title}@${i.reported_at}:${i.status}`)),
  };
}

describe('fleet export version 6: the workshop records', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let api: string;

  beforeAll(async () => {
    t = await startTestServer();
    await seedDemoInspections(t.server.ctx, t.demo);
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    api = `/api/fleets/${t.demo.fleetId}`;
  });
  afterAll(() => t?.close());

  const exportOf = async (client: Client, fid: number): Promise<Doc> => {
    const res = await client.get(`/api/fleets/${fid}/export`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return res.body as Doc;
  };

  it('round trip: the demo fleet with a completed work order → export → empty fleet → same records', async () => {
    // A completed work order of an issue, a Due service of its truck and a part line.
    const { units } = (await manager.get(`${api}/units`)).body as { units: { id: number; nm: string }[] };
    const truck = units.find((u) => u.nm === 'Volvo FH16 #1')!;
    const issue = await manager.post(`${api}/issues`, {
      object_type: 'u',
      object_id: truck.id,
      title: 'Air dryer leaks',
      priority: 'high',
    });
    expect(issue.status, JSON.stringify(issue.body)).toBe(200);
    const due = await manager.post(`${api}/services`, { n: 'Greasing', t: 'u', uid: truck.id, f: 1 });
    expect(due.status, JSON.stringify(due.body)).toBe(200);
    const wo = await manager.post(`${api}/work-orders`, {
      object_type: 'u',
      object_id: truck.id,
      title: 'Air system',
      assignee_id: t.demo.users.mechanic,
      issue_ids: [issue.body.id],
      service_ids: [due.body.id],
      li: [{ n: 'Air dryer cartridge', t: 2, q: 1, c: 88.5 }],
    });
    expect(wo.status, JSON.stringify(wo.body)).toBe(200);
    expect((await mechanic.post(`${api}/work-orders/${wo.body.id}/start`, {})).status).toBe(200);
    const done = await mechanic.post(`${api}/work-orders/${wo.body.id}/complete`, { mileage: 400_000 });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    // The built-in DVIR's row is written when the forms are first read (inspections/forms.ts).
    expect((await manager.get(`${api}/inspection-forms`)).status).toBe(200);
    const docA = await exportOf(manager, t.demo.fleetId);
    expect(docA.version).toBe(FLEET_TRANSFER_VERSION);
    expect(FLEET_TRANSFER_VERSION).toBe(6);
    expect(docA.inspection_forms.map((f) => f.builtin)).toContain('dvir');
    const certified = docA.inspections.find((x) => x.defects.some((d) => d.cert !== null))!;
    expect(certified.defects[0]).toMatchObject({ cert: 'repaired', cert_by: 'mechanic' });
    expect(certified.signature).not.toBeNull();
    expect(certified.defects[0]!.cert_signature).not.toBeNull();
    expect(certified.attachments.length).toBeGreaterThanOrEqual(2);
    const completed = docA.work_orders.find((w) => w.title === 'Air system')!;
    expect(completed).toMatchObject({
      status: 'completed',
      assignee: 'mechanic',
      mileage: 400_000,
      issue_ids: [issue.body.id],
      service_ids: [due.body.id],
      li: [{ name: 'Air dryer cartridge', kind: 2, qty: 1000, cost: 88_500 }],
    });
    expect(completed.service_id).not.toBeNull();
    expect(docA.vehicle_assignments.map((a) => a.driver).sort()).toEqual(['driver', 'driver', 'mechanic']);

    // An empty fleet whose members are the demo's people (logins map to them).
    const accountId = await accountOf(t, 'manager');
    const fid = await createFleet(t, accountId, 'Workshop copy');
    await createUser(t, { name: 'workshop-copy', accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    const admin = await t.login('workshop-copy');
    const db = t.server.ctx.db.kysely;
    for (const name of ['manager', 'mechanic', 'driver', 'viewer']) {
      const user = await db
        .selectFrom('users')
        .select('id')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      await db.insertInto('fleet_users').values({ fleet_id: fid, user_id: user.id, acl: ACL_ALL }).execute();
    }
    const imported = await admin.post(`/api/fleets/${fid}/transfer`, { document: docA });
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(200);
    expect(imported.body.created).toMatchObject({
      inspections: docA.inspections.length,
      work_orders: docA.work_orders.length,
      vehicle_assignments: docA.vehicle_assignments.length,
    });
    expect(imported.body.matched.inspection_forms).toBeGreaterThanOrEqual(1);

    const docB = await exportOf(admin, fid);
    const a = workshop(docA);
    const b = workshop(docB);
    for (const key of Object.keys(a) as (keyof typeof a)[]) expect(b[key], key).toEqual(a[key]);

    // Through the API of the copy: the work order's links, the inspection's images.
    const copy = `/api/fleets/${fid}`;
    const orders = (await admin.get(`${copy}/work-orders?status=completed`)).body.work_orders as {
      id: number;
      title: string;
    }[];
    const order = (await admin.get(`${copy}/work-orders/${orders.find((w) => w.title === 'Air system')!.id}`))
      .body;
    expect(order).toMatchObject({
      status: 'completed',
      assignee: { nm: 'Mike Mechanic' },
      issues: [{ title: 'Air dryer leaks', status: 'resolved' }],
      services: [{ n: 'Greasing' }],
      total_cost: 88.5,
    });
    const list = (await admin.get(`${copy}/inspections`)).body.inspections as { id: number; def: number }[];
    const withCert = [];
    for (const row of list) {
      const full = (await admin.get(`${copy}/inspections/${row.id}`)).body;
      if (full.defects.some((d: { cert: string | null }) => d.cert !== null)) withCert.push(full);
    }
    expect(withCert).toHaveLength(1);
    const inspection = withCert[0];
    expect(inspection.defects[0]).toMatchObject({ cert: 'repaired', cb: { nm: 'Mike Mechanic' } });
    for (const aid of [inspection.sig, inspection.defects[0].csig]) {
      const image = await admin.get(`${copy}/inspections/${inspection.id}/attachments/${aid}`);
      expect(image.status).toBe(200);
    }
    const defectIssue = (await admin.get(`${copy}/issues/${inspection.defects[0].iss}`)).body;
    expect(defectIssue.inspection_id).toBe(inspection.id);
  });

  it('still imports a version 5 document (no workshop records)', async () => {
    const doc = await exportOf(manager, t.demo.fleetId);
    const { inspection_forms: _f, inspections: _i, work_orders: _w, vehicle_assignments: _v, ...older } = doc;
    const accountId = await accountOf(t, 'manager');
    const fid = await createFleet(t, accountId, 'Version five');
    await createUser(t, { name: 'version-five', accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    const admin = await t.login('version-five');
    const res = await admin.post(`/api/fleets/${fid}/transfer`, { document: { ...older, version: 5 } });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.created).toMatchObject({ inspections: 0, work_orders: 0, vehicle_assignments: 0 });
    expect(res.body.created.issues).toBe(doc.issues.length);
  });
});
