import { ACL_ALL, type FleetTransferDocument } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountOf,
  type Client,
  createFleet,
  createUnit,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';

/**
 * Fleet export → import keeps what a unit's page shows: its total and actual counters, its interval
 * baselines and its meter history; and the device identifiers are kept or entered again as the importer
 * says (PRODUCT.md "Administration", migration; identifiers unique across the installation). SQLite and
 * PostgreSQL (TEST_DB).
 */

type Doc = FleetTransferDocument;
interface UnitRow {
  id: number;
  nm: string;
  uid: string;
  cnm: number;
  cneh: number;
  acnm: number;
  aceh: number;
}

describe('fleet transfer: counters and device identifiers', () => {
  let t: TestServer;
  let accountId: number;
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
    accountId = await accountOf(t, 'manager');
  });
  afterAll(() => t.close());

  /** A new empty fleet of the demo account and a member holding every right on it. */
  async function emptyFleet(name: string) {
    const fid = await createFleet(t, accountId, name);
    const user = `devices-${++n}`;
    await createUser(t, { name: user, accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    return { fid, client: await t.login(user) };
  }
  const unitsOf = async (client: Client, fid: number): Promise<UnitRow[]> => {
    const res = await client.get(`/api/fleets/${fid}/units`);
    expect(res.status).toBe(200);
    return res.body.units;
  };
  const exportOf = async (client: Client, fid: number): Promise<Doc> => {
    const res = await client.get(`/api/fleets/${fid}/export`);
    expect(res.status).toBe(200);
    return res.body as Doc;
  };
  /** A source fleet with one unit that joined at 100,000 km and 5,000 h and was corrected by hand since. */
  async function source(name: string) {
    const a = await emptyFleet(name);
    const unit = await createUnit(t, {
      accountId,
      fleetId: a.fid,
      name: `${name} truck`,
      mileage: 100_000,
      engineHours: 5_000,
    });
    const corrected = await a.client.post(`/api/fleets/${a.fid}/units/${unit}/meter`, {
      cnm: 109_600,
      cneh: 5_040,
    });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    return { ...a, unit };
  }

  it('brings back the exported counters, interval baselines and corrections', async () => {
    const a = await source('Counters A');
    const interval = await a.client.post(`/api/fleets/${a.fid}/import`, {
      intervals: [
        {
          n: 'Oil every 10,000 km',
          cnme: 1,
          cnmd: 10_000,
          cnmo: 500,
          cnehe: 1,
          cnehd: 250,
          cneho: 10,
          u: [{ id: a.unit, lcnm: 105_000, lceh: 5_010 }],
        },
      ],
    });
    expect(interval.status, JSON.stringify(interval.body)).toBe(200);
    const [before] = await unitsOf(a.client, a.fid);
    expect(before).toMatchObject({ cnm: 109_600, cneh: 5_040, acnm: 9_600, aceh: 40 });
    const doc = await exportOf(a.client, a.fid);

    const b = await emptyFleet('Counters B');
    const res = await b.client.post(`/api/fleets/${b.fid}/transfer`, { document: doc });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created.counter_corrections).toBe(2);
    const [after] = await unitsOf(b.client, b.fid);
    expect(after).toMatchObject({ nm: before!.nm, cnm: 109_600, cneh: 5_040, acnm: 9_600, aceh: 40 });

    // The interval baselines and what they leave until the next service are the source's.
    const intervalsOf = async (client: Client, fid: number) => {
      const r = await client.get(`/api/fleets/${fid}/intervals`);
      expect(r.status).toBe(200);
      return r.body.intervals[0].u.map(({ id: _id, ...rest }: { id: number }) => rest);
    };
    expect(await intervalsOf(b.client, b.fid)).toEqual(await intervalsOf(a.client, a.fid));

    // The meter history shows the same corrections: 100,000 → 109,600 km and 5,000 → 5,040 h.
    const corrections = async (client: Client, fid: number, unit: number) => {
      const r = await client.get(`/api/fleets/${fid}/units/${unit}/meter`);
      expect(r.status).toBe(200);
      return r.body.entries
        .filter((e: { kind: string }) => e.kind === 'correction')
        .map(
          (e: {
            cnm: number | null;
            cneh: number | null;
            old_cnm: number | null;
            old_cneh: number | null;
          }) => (e.cnm === null ? ['engine_hours', e.old_cneh, e.cneh] : ['mileage', e.old_cnm, e.cnm]),
        )
        .sort();
    };
    const was = await corrections(a.client, a.fid, a.unit);
    expect(was).toEqual([
      ['engine_hours', 5_000, 5_040],
      ['mileage', 100_000, 109_600],
    ]);
    expect(await corrections(b.client, b.fid, after!.id)).toEqual(was);

    // A second round trip changes nothing.
    const c = await emptyFleet('Counters C');
    const again = await c.client.post(`/api/fleets/${c.fid}/transfer`, {
      document: await exportOf(b.client, b.fid),
    });
    expect(again.status).toBe(200);
    expect((await unitsOf(c.client, c.fid))[0]).toMatchObject({
      cnm: 109_600,
      cneh: 5_040,
      acnm: 9_600,
      aceh: 40,
    });
  });

  it('keeps device identifiers when asked and free; refuses each taken one, nothing written', async () => {
    const a = await source('Devices A');
    const [sourceUnit] = await unitsOf(a.client, a.fid);
    const doc = await exportOf(a.client, a.fid);
    expect(doc.units[0]!.device_id).toBe(sourceUnit!.uid);

    // Same server, the exported unit still holds its identifier: refused, per unit, nothing stored.
    const b = await emptyFleet('Devices B');
    const taken = await b.client.post(`/api/fleets/${b.fid}/transfer`, { document: doc, devices: 'keep' });
    expect(taken.status).toBe(409);
    expect(taken.body.details).toEqual([
      { row: 0, field: 'body.document.units.0.device_id', reason: 'Device identifier is already in use' },
    ]);
    expect(await unitsOf(b.client, b.fid)).toEqual([]);

    // Entered again for that unit: the new identifier.
    const entered = await b.client.post(`/api/fleets/${b.fid}/transfer`, {
      document: doc,
      devices: 'keep',
      device_ids: [{ unit: doc.units[0]!.id, uid: `${sourceUnit!.uid}-new` }],
    });
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    expect((await unitsOf(b.client, b.fid))[0]!.uid).toBe(`${sourceUnit!.uid}-new`);

    // Once the source's tracker moved to another identifier, the exported one is free and kept.
    const moved = await a.client.put(`/api/fleets/${a.fid}/units/${a.unit}/device`, {
      uid: `${sourceUnit!.uid}-moved`,
    });
    expect(moved.status).toBe(200);
    const c = await emptyFleet('Devices C');
    const kept = await c.client.post(`/api/fleets/${c.fid}/transfer`, { document: doc, devices: 'keep' });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((await unitsOf(c.client, c.fid))[0]!.uid).toBe(sourceUnit!.uid);
  });

  it('re-enters device identifiers: typed ones, taken ones refused, empty ones left for later', async () => {
    const a = await source('Enter A');
    const doc = await exportOf(a.client, a.fid);
    const b = await emptyFleet('Enter B');
    const [other] = await unitsOf(a.client, a.fid);
    const taken = await b.client.post(`/api/fleets/${b.fid}/transfer`, {
      document: doc,
      devices: 'enter',
      device_ids: [{ unit: doc.units[0]!.id, uid: other!.uid }],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.details).toEqual([
      { row: 0, field: 'body.device_ids.0.uid', reason: 'Device identifier is already in use' },
    ]);
    expect(await unitsOf(b.client, b.fid)).toEqual([]);

    const typed = await b.client.post(`/api/fleets/${b.fid}/transfer`, {
      document: doc,
      devices: 'enter',
      device_ids: [{ unit: doc.units[0]!.id, uid: 'enter-b-tracker' }],
    });
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    expect((await unitsOf(b.client, b.fid))[0]!.uid).toBe('enter-b-tracker');

    // Left empty: a placeholder to be replaced on the unit's page once the tracker is known.
    const c = await emptyFleet('Enter C');
    const empty = await c.client.post(`/api/fleets/${c.fid}/transfer`, {
      document: doc,
      devices: 'enter',
      device_ids: [{ unit: doc.units[0]!.id, uid: null }],
    });
    expect(empty.status).toBe(200);
    expect((await unitsOf(c.client, c.fid))[0]!.uid).toMatch(/^import-/);
  });
});
