import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CustomFieldsFixture,
  issueFields as fields,
  startCustomFieldsServer,
} from '../../test/customfields-fixture.js';
import { EventsClient } from '../../test/events-client.js';
import type { Client, TestServer } from '../../test/harness.js';
import { validateCustomValues } from './service.js';

/**
 * Custom field values written on services, units, drivers and trailers: the checks, option changes and
 * deletes that meet held values, and writes racing a delete (spec §7 "Custom fields").
 */
describe('custom field values', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let fid: number;
  let unitId: number;
  let driverId: number;
  let unique: CustomFieldsFixture['unique'];
  let define: CustomFieldsFixture['define'];
  let newService: CustomFieldsFixture['newService'];

  beforeAll(async () => {
    ({ t, manager, mechanic, viewer, outsider, fid, unitId, driverId, unique, define, newService } =
      await startCustomFieldsServer());
  });
  afterAll(() => t.close());

  it('checks values written on a service and on a unit, driver and trailer; nothing is written on failure', async () => {
    const svcList = await define({ n: unique('Priority'), tp: 2, t: 's', s: { options: ['Low', 'High'] } });
    const svcText = await define({ n: unique('Work order'), tp: 1, t: 's' });
    const unitText = await define({ n: unique('Plate colour'), tp: 1, t: 'u' });
    const unitList = await define({ n: unique('Fuel'), tp: 2, t: 'u', s: { options: ['Diesel', 'Petrol'] } });
    const driverText = await define({ n: unique('Licence'), tp: 1, t: 'd' });
    const foreign = await define(
      { n: unique('Foreign'), tp: 1, t: 's' },
      outsider,
      `/api/fleets/${t.demo.otherFleetId}/custom-fields`,
    );

    const ok = await newService([
      { id: svcList.id, v: 'High' },
      { id: svcText.id, v: 'WO-17' },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.cf).toEqual([
      { id: svcList.id, v: 'High' },
      { id: svcText.id, v: 'WO-17' },
    ]);

    const bad = await newService([
      { id: unitText.id, v: 'x' }, // wrong owner type
      { id: 999999, v: 'x' }, // unknown
      { id: svcList.id, v: 'Urgent' }, // not an option
      { id: foreign.id, v: 'x' }, // another fleet's field
      { id: svcText.id, v: 'y'.repeat(513) }, // too long (the schema refuses it already)
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(4);
    expect(fields(bad.body)).toEqual(['body.cf.4.v']);
    const bad2 = await newService([
      { id: unitText.id, v: 'x' },
      { id: 999999, v: 'x' },
      { id: svcList.id, v: 'Urgent' },
      { id: foreign.id, v: 'x' },
      { id: svcText.id, v: '' },
    ]);
    expect(bad2.status).toBe(400);
    expect(fields(bad2.body)).toEqual(['body.cf.0.id', 'body.cf.1.id', 'body.cf.2.v', 'body.cf.3.id']);

    // Update: one bad value refuses the whole change; the empty string clears a list value.
    const sid = ok.body.id;
    const refused = await manager.put(`/api/fleets/${fid}/services/${sid}`, {
      n: 'renamed',
      cf: [{ id: svcList.id, v: 'low' }],
    });
    expect(refused.status).toBe(400);
    expect(fields(refused.body)).toEqual(['body.cf.0.v']);
    const kept = (await viewer.get(`/api/fleets/${fid}/services/${sid}`)).body;
    expect(kept.n).not.toBe('renamed');
    expect(kept.cf).toEqual(ok.body.cf);
    const cleared = await manager.put(`/api/fleets/${fid}/services/${sid}`, {
      cf: [{ id: svcList.id, v: '' }],
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.cf).toEqual([{ id: svcList.id, v: '' }]);

    // Batch rows report their index.
    const batch = await manager.post(`/api/fleets/${fid}/services/batch`, {
      services: [
        { t: 'u', uid: unitId, f: 8, n: unique('batch ok'), cf: [{ id: svcText.id, v: 'a' }] },
        { t: 'u', uid: unitId, f: 8, n: unique('batch bad'), cf: [{ id: unitList.id, v: 'Diesel' }] },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.details).toEqual([
      { row: 1, field: 'body.services.1.cf.0.id', message: expect.any(String) },
    ]);
    const batchUpdate = await manager.put(`/api/fleets/${fid}/services/batch`, {
      services: [{ id: sid, cf: [{ id: svcList.id, v: 'Urgent' }] }],
    });
    expect(batchUpdate.status).toBe(400);
    expect(fields(batchUpdate.body)).toEqual(['body.services.0.cf.0.v']);

    // The archive correction checks them too.
    const closed = await manager.post(`/api/fleets/${fid}/services`, {
      t: 'u',
      uid: unitId,
      f: 8,
      n: unique('closed'),
    });
    const archived = `/api/fleets/${fid}/services/archived/${closed.body.id}`;
    expect((await manager.put(archived, { cf: [{ id: driverText.id, v: 'B' }] })).status).toBe(400);
    const corrected = await manager.put(archived, { cf: [{ id: svcText.id, v: 'late entry' }] });
    expect(corrected.status).toBe(200);
    expect(corrected.body.cf).toEqual([{ id: svcText.id, v: 'late entry' }]);

    // A unit takes unit fields only.
    const unitUrl = `/api/fleets/${fid}/units/${unitId}`;
    const unitBad = await mechanic.put(unitUrl, {
      cf: [
        { id: svcText.id, v: 'x' },
        { id: unitList.id, v: 'Gas' },
        { id: foreign.id, v: 'x' },
        { id: 424242, v: 'x' },
      ],
    });
    expect(unitBad.status).toBe(400);
    expect(fields(unitBad.body)).toEqual(['body.cf.0.id', 'body.cf.1.v', 'body.cf.2.id', 'body.cf.3.id']);
    const unitOk = await mechanic.put(unitUrl, {
      cf: [
        { id: unitText.id, v: 'yellow' },
        { id: unitList.id, v: 'Diesel' },
      ],
    });
    expect(unitOk.status, JSON.stringify(unitOk.body)).toBe(200);
    expect(unitOk.body.cf).toHaveLength(2);
    const dupUnit = await mechanic.put(unitUrl, {
      cf: [
        { id: unitText.id, v: 'a' },
        { id: unitText.id, v: 'b' },
      ],
    });
    expect(fields(dupUnit.body)).toEqual(['body.cf.1.id']);

    // Drivers take driver fields, trailers trailer fields.
    expect(
      (await mechanic.put(`/api/drivers/${driverId}`, { cf: [{ id: unitText.id, v: 'x' }] })).status,
    ).toBe(400);
    const driverOk = await mechanic.put(`/api/drivers/${driverId}`, { cf: [{ id: driverText.id, v: 'C1' }] });
    expect(driverOk.body.cf).toEqual([{ id: driverText.id, v: 'C1' }]);
    const trailer = await t.server.ctx.db.kysely
      .selectFrom('trailers')
      .select('id')
      .where('fleet_id', '=', fid)
      .executeTakeFirstOrThrow();
    const trailerBad = await mechanic.put(`/api/trailers/${trailer.id}`, {
      cf: [{ id: driverText.id, v: 'x' }],
    });
    expect(fields(trailerBad.body)).toEqual(['body.cf.0.id']);
  });

  it('refuses an option change that leaves held values outside the list', async () => {
    const f = await define({ n: unique('Shift'), tp: 2, t: 's', s: { options: ['Day', 'Night'] } });
    expect((await newService([{ id: f.id, v: 'Night' }])).status).toBe(200);
    const res = await manager.put(`/api/custom-fields/${f.id}`, { s: { options: ['Day', 'Evening'] } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 10,
      details: [{ field: 'body.s.options', value: 'Night', values: 1 }],
    });
    expect(
      (await manager.put(`/api/custom-fields/${f.id}`, { s: { options: ['Night', 'Evening'] } })).status,
    ).toBe(200);
  });

  it('safe delete refuses while values exist; unsafe delete strips them from services and units', async () => {
    const svcField = await define({ n: unique('Cost centre'), tp: 1, t: 's' });
    const unitField = await define({ n: unique('Depot'), tp: 2, t: 'u', s: { options: ['North', 'South'] } });
    const keep = await define({ n: unique('Keep'), tp: 1, t: 'u' });
    const s1 = await newService([{ id: svcField.id, v: 'CC-1' }]);
    const s2 = await newService([{ id: svcField.id, v: 'CC-2' }]);
    const unitUrl = `/api/fleets/${fid}/units/${unitId}`;
    await manager.put(unitUrl, {
      cf: [
        { id: unitField.id, v: 'South' },
        { id: keep.id, v: 'kept' },
      ],
    });

    const refused = await manager.delete(`/api/custom-fields/${svcField.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 10, details: [{ id: svcField.id, values: 2 }] });
    expect(refused.body.reason).toContain('2 values');
    expect((await manager.delete(`/api/custom-fields/${unitField.id}?safe=1`)).body.details).toEqual([
      { id: unitField.id, reason: expect.any(String), values: 1 },
    ]);
    expect((await viewer.get(`/api/custom-fields/${svcField.id}`)).status).toBe(200);

    const events = await EventsClient.connect(t.url, viewer.ssid!);
    try {
      const gone = await manager.delete(`/api/custom-fields/${svcField.id}?safe=0`);
      expect(gone.body).toEqual({ error: 0, values: 2 });
      for (const s of [s1.body.id, s2.body.id]) {
        const e = await events.next((x) => x.s === 'service' && x.t === 'u' && (x.d as any).id === s);
        expect((e.d as any).cf).toEqual([]);
        expect((await viewer.get(`/api/fleets/${fid}/services/${s}`)).body.cf).toEqual([]);
      }
      await events.next((x) => x.s === 'customfield' && x.t === 'd' && (x.d as any).id === svcField.id);

      expect((await manager.delete(`/api/custom-fields/${unitField.id}?safe=0`)).body).toEqual({
        error: 0,
        values: 1,
      });
      const u = await events.next((x) => x.s === 'avl_unit' && x.t === 'u' && (x.d as any).id === unitId);
      expect((u.d as any).cf).toEqual([{ id: keep.id, v: 'kept' }]);
      const units = (await viewer.get(`/api/fleets/${fid}/units`)).body.units as any[];
      expect(units.find((x) => x.id === unitId).cf).toEqual([{ id: keep.id, v: 'kept' }]);
    } finally {
      events.close();
    }
  });

  describe('a value written while its field is deleted never outlives the field', () => {
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const unitCf = async () =>
      (
        await t.server.ctx.db.kysely
          .selectFrom('units')
          .select('cf')
          .where('id', '=', unitId)
          .executeTakeFirstOrThrow()
      ).cf;

    it('an unsafe delete during a write waits for it, then strips its value', async () => {
      const f = await define({ n: unique('Racing'), tp: 1, t: 'u' });
      const { kysely, ops } = t.server.ctx.db;
      let deleting: Promise<Awaited<ReturnType<Client['delete']>>> | undefined;
      // The writer's transaction as updateUnit runs it: check (holding the definitions), then write.
      await kysely.transaction().execute(async (trx) => {
        expect(await validateCustomValues(trx, ops, fid, 'u', [{ id: f.id, v: 'written' }])).toEqual([]);
        await trx
          .updateTable('units')
          .set({ cf: JSON.stringify([{ id: f.id, v: 'written' }]) })
          .where('id', '=', unitId)
          .execute();
        deleting = manager.delete(`/api/custom-fields/${f.id}?safe=0`);
        await pause(400); // the delete arrives and must wait for this commit
      });
      const gone = await deleting!;
      expect(gone.status).toBe(200);
      expect(gone.body).toEqual({ error: 0, values: 1 });
      expect(JSON.parse(await unitCf()).some((x: { id: number }) => x.id === f.id)).toBe(false);
    });

    it('a write during an unsafe delete waits for it, then is refused as an unknown field', async () => {
      const f = await define({ n: unique('Racing'), tp: 1, t: 'u' });
      const { kysely, ops } = t.server.ctx.db;
      let writing: Promise<Awaited<ReturnType<Client['put']>>> | undefined;
      // The delete's transaction as deleteField runs it: the definition locked first.
      await kysely.transaction().execute(async (trx) => {
        const lock = trx.selectFrom('custom_fields').select('id').where('id', '=', f.id);
        await ops.forUpdate(lock).execute();
        writing = manager.put(`/api/fleets/${fid}/units/${unitId}`, { cf: [{ id: f.id, v: 'late' }] });
        await pause(400); // the write arrives and must wait for this commit
        await trx.deleteFrom('custom_fields').where('id', '=', f.id).execute();
      });
      const refused = await writing!;
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 4 });
      expect(JSON.parse(await unitCf()).some((x: { id: number }) => x.id === f.id)).toBe(false);
    });
  });
});
