import { DAY_SECONDS } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../context.js';
import { pruneInspections } from '../../jobs/inspection-retention.js';
import { eventsSince, outboxMark } from '../../test/domain-events.js';
import {
  accountOf,
  type Client,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/** A 1×1 PNG as the browser's signature pad would send it (the bytes of a real image). */
export const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('inspection forms and inspections (DVIR)', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let fid: number;
  let unitId: number;
  let dvirId: number;
  const forms = () => `/api/fleets/${fid}/inspection-forms`;
  const insp = () => `/api/fleets/${fid}/inspections`;

  /** A DVIR submit: every item passes except those given as failed (index → severity or true). */
  const dvirBody = (failed: Record<number, string | true> = {}, extra: Record<string, unknown> = {}) => ({
    fm: dvirId,
    ot: 'u',
    oi: unitId,
    mi: 12345.5,
    res: Array.from({ length: 11 }, (_, i) =>
      i in failed
        ? { i, ok: false, ...(failed[i] === true ? {} : { sev: failed[i] }), tx: 'Brake pedal soft' }
        : { i, ok: true },
    ),
    sig: PNG,
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
    outsider = await t.login('outsider');
    fid = t.demo.fleetId;
    const unit = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', fid)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    unitId = unit.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every fleet has the built-in DVIR with the eleven items of 49 CFR 396.11, also a new fleet', async () => {
    const res = await viewer.get(forms());
    expect(res.status).toBe(200);
    const dvir = res.body.forms[0];
    expect(dvir).toMatchObject({ bi: 'dvir', n: 'DVIR', used: 0 });
    expect(dvir.items).toHaveLength(11);
    expect(dvir.items[0]).toEqual({
      k: 'pf',
      l: 'Service brakes including trailer brake connections',
      key: 'inspections.dvir.serviceBrakes',
      sev: 'dangerous',
      req: true,
    });
    expect(dvir.items.map((i: any) => i.key.split('.').pop())).toEqual([
      'serviceBrakes',
      'parkingBrake',
      'steering',
      'lighting',
      'tires',
      'horn',
      'wipers',
      'mirrors',
      'coupling',
      'wheels',
      'emergency',
    ]);
    dvirId = dvir.id;
    // Read twice: still one built-in form.
    expect((await viewer.get(forms())).body.forms.filter((f: any) => f.bi)).toHaveLength(1);

    const account = await accountOf(t, 'manager');
    const fresh = await createFleet(t, account, 'Fresh depot');
    await createUser(t, {
      name: 'fresh-inspector',
      accountId: account,
      memberships: [{ fleetId: fresh, acl: 16384 | 64 }],
    });
    const inspector = await t.login('fresh-inspector');
    const list = await inspector.get(`/api/fleets/${fresh}/inspection-forms`);
    expect(list.status).toBe(200);
    expect(list.body.forms.map((f: any) => f.bi)).toEqual(['dvir']);
  });

  it('the built-in form is neither editable nor deletable (409)', async () => {
    const put = await manager.put(`${forms()}/${dvirId}`, { n: 'Mine' });
    expect(put.status).toBe(409);
    expect(put.body.reason).toMatch(/built-in/);
    expect((await manager.delete(`${forms()}/${dvirId}`)).status).toBe(409);
  });

  it('forms: create, read, GET → PUT round trip, update, refusals, delete', async () => {
    const created = await manager.post(forms(), {
      n: 'Trailer walk-around',
      items: [
        { k: 'pf', l: 'Lights', sev: 'minor' },
        { k: 'num', l: 'Tyre pressure', req: true },
        { k: 'text', l: 'Remarks' },
        { k: 'photo', l: 'Load' },
        { k: 'sig', l: 'Co-driver' },
      ],
    });
    expect(created.status).toBe(200);
    expect(created.body.items[1]).toEqual({ k: 'num', l: 'Tyre pressure', key: null, sev: null, req: true });
    expect(created.body.items[0]).toMatchObject({ sev: 'minor', req: true });
    const id = created.body.id;
    const read = await viewer.get(`${forms()}/${id}`);
    expect(read.body).toEqual(created.body);
    const same = await manager.put(`${forms()}/${id}`, read.body);
    expect(same.status).toBe(200);
    expect(same.body.items).toEqual(read.body.items);
    const renamed = await manager.put(`${forms()}/${id}`, { ...read.body, n: 'Walk-around' });
    expect(renamed.body.n).toBe('Walk-around');

    const badSeverity = await manager.post(forms(), { n: 'x', items: [{ k: 'text', l: 'a', sev: 'major' }] });
    expect(badSeverity.status).toBe(400);
    expect((await manager.post(forms(), { n: 'x', items: [] })).status).toBe(400);
    expect((await viewer.post(forms(), { n: 'x', items: [{ k: 'pf', l: 'a' }] })).status).toBe(403);
    expect((await outsider.get(forms())).status).toBe(403);

    expect((await manager.delete(`${forms()}/${id}`)).body).toEqual({ error: 0 });
    expect((await viewer.get(`${forms()}/${id}`)).status).toBe(404);
  });

  it('a form of another fleet answers 404', async () => {
    const other = (await outsider.get(`/api/fleets/${t.demo.otherFleetId}/inspection-forms`)).body.forms[0];
    expect(other.bi).toBe('dvir');
    expect((await manager.get(`${forms()}/${other.id}`)).status).toBe(404);
    expect((await manager.post(insp(), { ...dvirBody(), fm: other.id })).status).toBe(404);
  });

  let failedId: number;

  it('submits a DVIR with a failed brake item: a defect with its severity and priority, an event, locked', async () => {
    const mark = await outboxMark(t.server.ctx.db.kysely);
    const res = await viewer.post(insp(), dvirBody({ 0: true, 5: 'minor' }));
    expect(res.status).toBe(200);
    const i = res.body;
    failedId = i.id;
    expect(i).toMatchObject({
      fm: dvirId,
      bi: 'dvir',
      ot: 'u',
      oi: unitId,
      mi: 12345.5,
      nd: 2,
      ws: 'dangerous',
      st: 'defects',
      ak: null,
    });
    expect(i.by.id).toBe(t.demo.users.viewer);
    expect(i.on).not.toBe('');
    expect(i.items).toHaveLength(11);
    expect(i.defects.map((d: any) => [d.i, d.sev, d.pr, d.cert])).toEqual([
      [0, 'dangerous', 'critical', null],
      [5, 'minor', 'medium', null],
    ]);
    // Each defect opened an issue of the unit, its priority from the severity, titled with the item.
    const opened = await Promise.all(
      i.defects.map(async (d: any) => (await viewer.get(`/api/fleets/${fid}/issues/${d.iss}`)).body),
    );
    expect(opened.map((o: any) => [o.title, o.priority, o.status, o.object_type, o.object_id])).toEqual([
      ['Service brakes including trailer brake connections', 'critical', 'open', 'u', unitId],
      ['Horn', 'medium', 'open', 'u', unitId],
    ]);
    expect(opened[0].description).toBe('Brake pedal soft');
    expect(i.res[0]).toMatchObject({ i: 0, ok: false, sev: 'dangerous', tx: 'Brake pedal soft' });
    expect(i.res[1]).toMatchObject({ i: 1, ok: true, sev: null });
    // The signature is a stored PNG.
    const sig = await fetch(`${t.url}${insp()}/${i.id}/attachments/${i.sig}`, {
      headers: { authorization: `SSID ${viewer.ssid}` },
    });
    expect(sig.status).toBe(200);
    expect(sig.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await sig.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const events = await eventsSince(t.server.ctx.db.kysely, mark, ['inspection.submitted']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ inspectionId: i.id, defects: 2, worst: 'dangerous', objectId: unitId });

    // The list shows it, with filters.
    const list = await viewer.get(`${insp()}?oi=${unitId}&d=1`);
    expect(list.body.inspections[0]).toMatchObject({ id: i.id, nd: 2, st: 'defects' });
    // The form counts it.
    expect((await viewer.get(`${forms()}/${dvirId}`)).body.used).toBe(1);

    // Locked: GET → PUT unchanged is accepted; a change of a stored field is refused.
    const read = (await viewer.get(`${insp()}/${i.id}`)).body;
    const same = await viewer.put(`${insp()}/${i.id}`, read);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(read);
    const changed = await viewer.put(`${insp()}/${i.id}`, { ...read, mi: 1 });
    expect(changed.status).toBe(400);
    expect(changed.body.details).toEqual([{ field: 'body.mi', message: 'Cannot be changed' }]);
    const results = await viewer.put(`${insp()}/${i.id}`, { ...read, res: [] });
    expect(results.status).toBe(400);
  });

  it('refuses a submit with a missing pass/fail answer, a wrong kind, an unknown object, no signature', async () => {
    const missing = dvirBody();
    missing.res = missing.res.slice(1);
    const res = await viewer.post(insp(), missing);
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toMatch(/Item 1: Pass or fail is required/);
    const twice = dvirBody();
    twice.res.push({ i: 3, ok: true });
    expect((await viewer.post(insp(), twice)).status).toBe(400);
    expect((await viewer.post(insp(), { ...dvirBody(), oi: 999999 })).status).toBe(404);
    const noSig = { ...dvirBody() } as Record<string, unknown>;
    delete noSig.sig;
    expect((await viewer.post(insp(), noSig)).status).toBe(400);
    expect((await viewer.post(insp(), { ...dvirBody(), sig: 'data:text/html;base64,AAAA' })).status).toBe(
      400,
    );
  });

  it('the next inspection of the unit must acknowledge the last report (409 without)', async () => {
    const res = await viewer.post(insp(), dvirBody());
    expect(res.status).toBe(409);
    expect(res.body.reason).toMatch(/Acknowledge the last inspection report/);
    expect(res.body.details).toEqual([{ id: failedId, field: 'body.ack', reason: res.body.reason }]);
    expect((await viewer.post(insp(), dvirBody({}, { ack: failedId + 1000 }))).status).toBe(409);
  });

  it('certification: a mechanic certifies each defect with a signature; a viewer may not; once each', async () => {
    const read = (await mechanic.get(`${insp()}/${failedId}`)).body;
    const [brake, horn] = read.defects;
    const denied = await viewer.put(`${insp()}/${failedId}`, {
      cert: [{ id: brake.id, c: 'repaired', sig: PNG }],
    });
    expect(denied.status).toBe(403);
    const mark = await outboxMark(t.server.ctx.db.kysely);
    const res = await mechanic.put(`${insp()}/${failedId}`, {
      ...read,
      cert: [{ id: brake.id, c: 'repaired', n: 'Pads replaced', sig: PNG }],
    });
    expect(res.status).toBe(200);
    expect(res.body.defects[0]).toMatchObject({
      cert: 'repaired',
      cn: 'Pads replaced',
      cb: { id: t.demo.users.mechanic },
    });
    expect(res.body.defects[0].csig).toBeGreaterThan(0);
    expect(res.body.st).toBe('defects');
    const again = await mechanic.put(`${insp()}/${failedId}`, {
      cert: [{ id: brake.id, c: 'unnecessary', sig: PNG }],
    });
    expect(again.status).toBe(409);
    const wrong = await mechanic.put(`${insp()}/${failedId}`, {
      cert: [{ id: 999999, c: 'repaired', sig: PNG }],
    });
    expect(wrong.status).toBe(409);
    const both = await mechanic.put(`${insp()}/${failedId}`, {
      cert: [{ id: horn.id, c: 'unnecessary', sig: PNG }],
    });
    expect(both.body.st).toBe('certified');
    const events = await eventsSince(t.server.ctx.db.kysely, mark, ['inspection.certified']);
    expect(events.map((e: any) => e.defectIds)).toEqual([[brake.id], [horn.id]]);
  });

  it('acknowledgement: the next inspection acknowledges the last report, who and when are stored', async () => {
    const before = now();
    const res = await viewer.post(insp(), dvirBody({}, { ack: failedId }));
    expect(res.status).toBe(200);
    expect(res.body.nd).toBe(0);
    expect(res.body.st).toBe('ok');
    const last = (await viewer.get(`${insp()}/${failedId}`)).body;
    expect(last.ak.by.id).toBe(t.demo.users.viewer);
    expect(last.ak.at).toBeGreaterThanOrEqual(before);
    // A clean report asks nothing of the next one.
    expect((await viewer.post(insp(), dvirBody())).status).toBe(200);
    // PUT ack on an acknowledged report: 409.
    expect((await viewer.put(`${insp()}/${failedId}`, { ack: true })).status).toBe(409);
  });

  it('acknowledgement through PUT, once', async () => {
    const failed = await viewer.post(insp(), dvirBody({ 2: true }));
    expect(failed.status).toBe(200);
    const ack = await viewer.put(`${insp()}/${failed.body.id}`, { ack: true });
    expect(ack.status).toBe(200);
    expect(ack.body.ak.by.id).toBe(t.demo.users.viewer);
    // Acknowledged already: the next submit needs no ack.
    expect((await viewer.post(insp(), dvirBody())).status).toBe(200);
  });

  it('another fleet’s inspection answers 404; the outsider is refused', async () => {
    expect((await outsider.get(`/api/fleets/${t.demo.otherFleetId}/inspections/${failedId}`)).status).toBe(
      404,
    );
    expect((await outsider.get(`${insp()}/${failedId}`)).status).toBe(403);
    const foreignUnit = await t.server.ctx.db.kysely
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', t.demo.otherFleetId)
      .executeTakeFirstOrThrow();
    expect((await manager.post(insp(), { ...dvirBody(), oi: foreignUnit.id })).status).toBe(404);
  });

  it('a changed form leaves submitted inspections’ items as they were; a deleted form keeps them', async () => {
    const form = await manager.post(forms(), { n: 'Short', items: [{ k: 'pf', l: 'Brakes' }] });
    const id = form.body.id;
    const unit2 = await createUnit(t, {
      accountId: await accountOf(t, 'manager'),
      fleetId: fid,
      name: 'Form test',
    });
    const sub = await viewer.post(insp(), {
      fm: id,
      ot: 'u',
      oi: unit2,
      res: [{ i: 0, ok: true }],
      sig: PNG,
    });
    expect(sub.status).toBe(200);
    await manager.put(`${forms()}/${id}`, {
      items: [
        { k: 'pf', l: 'Brakes and drums' },
        { k: 'text', l: 'x' },
      ],
    });
    expect((await viewer.get(`${insp()}/${sub.body.id}`)).body.items).toEqual([
      { k: 'pf', l: 'Brakes', key: null, sev: 'major', req: true },
    ]);
    await manager.delete(`${forms()}/${id}`);
    const kept = (await viewer.get(`${insp()}/${sub.body.id}`)).body;
    expect(kept).toMatchObject({ fm: null, fn: 'Short' });
  });

  it('the report "inspections with defects" lists each defect with its certification, also as CSV', async () => {
    const day = new Date(Date.now()).toISOString().slice(0, 10);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await manager.get(
      `/api/fleets/${fid}/reports/inspections-with-defects?from=${from}&to=${to}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.columns.map((c: any) => c.key)).toEqual([
      'date',
      'object_type',
      'object',
      'form',
      'item',
      'severity',
      'certification',
      'certified_by',
    ]);
    const brake = res.body.rows.find((r: any) => r.item === 'inspections.dvir.serviceBrakes');
    expect(brake).toMatchObject({
      object_type: 'u',
      form: 'DVIR',
      severity: 'dangerous',
      certification: 'repaired',
      certified_by: 'Mike Mechanic',
    });
    expect(res.body.rows.filter((r: any) => r.item === 'inspections.dvir.steering')).toHaveLength(1);
    expect(day >= from).toBe(true);
    const csv = await fetch(
      `${t.url}/api/fleets/${fid}/reports/inspections-with-defects/export?from=${from}&to=${to}&format=csv`,
      { headers: { authorization: `SSID ${manager.ssid}` } },
    );
    const text = await csv.text();
    expect(text).toContain('Service brakes including trailer brake connections');
    expect(text).toContain('Dangerous');
    expect(text).toContain('Repaired');
    // Another fleet's defects are not in it.
    const other = await outsider.get(
      `/api/fleets/${t.demo.otherFleetId}/reports/inspections-with-defects?from=${from}&to=${to}`,
    );
    expect(other.body.rows).toEqual([]);
  });

  it('retention: a fleet setting of at least 3 months; the job deletes older inspections with their images', async () => {
    expect((await viewer.get(`/api/fleets/${fid}/inspection-settings`)).body).toEqual({ rm: 12 });
    expect((await manager.put(`/api/fleets/${fid}/inspection-settings`, { rm: 2 })).status).toBe(400);
    expect((await viewer.put(`/api/fleets/${fid}/inspection-settings`, { rm: 6 })).status).toBe(403);
    expect((await manager.put(`/api/fleets/${fid}/inspection-settings`, { rm: 3 })).body).toEqual({ rm: 3 });
    const db = t.server.ctx.db.kysely;
    // The failed one is four months old now; the rest are recent.
    await db
      .updateTable('inspections')
      .set({ submitted_at: now() - 122 * DAY_SECONDS })
      .where('id', '=', failedId)
      .execute();
    const count = async () =>
      (await db.selectFrom('inspections').select('id').where('fleet_id', '=', fid).execute()).length;
    const before = await count();
    const mark = await outboxMark(db);
    expect(await pruneInspections(t.server.ctx)).toBe(1);
    expect(await count()).toBe(before - 1);
    expect((await viewer.get(`${insp()}/${failedId}`)).status).toBe(404);
    const images = await db
      .selectFrom('attachments')
      .select('id')
      .where('owner_type', '=', 'inspection')
      .where('owner_id', '=', failedId)
      .execute();
    expect(images).toEqual([]);
    const defects = await db
      .selectFrom('inspection_defects')
      .select('id')
      .where('inspection_id', '=', failedId)
      .execute();
    expect(defects).toEqual([]);
    const events = await eventsSince(db, mark, ['inspection.deleted']);
    expect(events).toMatchObject([{ inspectionId: failedId, reason: 'retention' }]);
    // Within three months: kept.
    expect(await pruneInspections(t.server.ctx)).toBe(0);
  });

  it('delete needs inspection.manage', async () => {
    const sub = (await viewer.get(insp())).body.inspections[0];
    expect((await viewer.delete(`${insp()}/${sub.id}`)).status).toBe(403);
    expect((await mechanic.delete(`${insp()}/${sub.id}`)).body).toEqual({ error: 0 });
    expect((await viewer.get(`${insp()}/${sub.id}`)).status).toBe(404);
  });
});
