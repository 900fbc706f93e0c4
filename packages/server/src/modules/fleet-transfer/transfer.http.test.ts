import {
  ACL_ALL,
  FLEET_TRANSFER_CSV_COLLECTIONS,
  FLEET_TRANSFER_VERSION,
  type FleetTransferDocument,
} from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../../test/events-client.js';
import {
  accountOf,
  type Client,
  createFleet,
  createUser,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { canonical } from './fixtures/canonical.js';
import { sampleDocument } from './fixtures/document.js';
import { LIVE_EVENTS_MAX } from './import.js';

/**
 * Fleet export and import: the round trip fleet A → export → import into an empty
 * fleet B → export B equals A's export modulo ids, every collection compared; an import into a
 * non-empty fleet matches by name; a bad document is 400 with nothing stored; admin on the fleet only;
 * other fleets stay invisible. Runs on SQLite and PostgreSQL (TEST_DB).
 */

type Doc = FleetTransferDocument;
const DAY = 86400;

describe('fleet export and import', () => {
  let t: TestServer;
  let manager: Client;
  let root: Client;
  let accountId: number;
  let today: number;

  const db = () => t.server.ctx.db.kysely;
  /** A new empty fleet of the demo account and a member holding every right on it. */
  async function emptyFleet(name: string) {
    const fid = await createFleet(t, accountId, name);
    const user = `transfer-${name.replace(/\W+/g, '-').toLowerCase()}`;
    await createUser(t, { name: user, accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    return { fid, client: await t.login(user) };
  }
  const exportOf = async (client: Client, fid: number): Promise<Doc> => {
    const res = await client.get(`/api/fleets/${fid}/export`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w-]+-export\.json"/);
    return res.body as Doc;
  };
  const counts = async (fid: number) => {
    const out: Record<string, number> = {};
    for (const table of [
      'units',
      'drivers',
      'trailers',
      'custom_fields',
      'line_items',
      'intervals',
      'assignments',
      'services',
      'fuel_fillings',
      'attachments',
      'cost_days',
    ] as const) {
      const row = await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('fleet_id', '=', fid)
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  };

  beforeAll(async () => {
    t = await startTestServer();
    manager = await t.login('manager');
    root = await t.login('root');
    accountId = await accountOf(t, 'manager');
    today = Math.floor(Date.now() / 1000 / DAY) * DAY;
  });
  afterAll(() => t.close());

  it('round trip: A → export → import into empty B → export B equals A, every collection', async () => {
    const a = await emptyFleet('Transfer A');
    const first = await a.client.post(`/api/fleets/${a.fid}/transfer`, { document: sampleDocument(today) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.created).toMatchObject({
      units: 2,
      drivers: 1,
      trailers: 1,
      custom_fields: 4,
      intervals: 1,
      assignments: 2,
      services: 2,
      archive: 2,
      fuel_fillings: 2,
      // A service's, a fuel filling's, the photo of truck 1 and the trailer issue's file.
      attachments: 4,
      meter_readings: 2,
      counter_corrections: 2,
      notification_setups: 5,
      issues: 1,
    });
    // The in-app set-up addressing nobody of this fleet is skipped, not widened to every member.
    expect(first.body.skipped.notification_setups).toBe(1);
    // Secrets never travel: the bot and the signed webhook are switched off, to have them entered again.
    expect(first.body.secrets.map((s: { channel: string; name: string }) => [s.channel, s.name])).toEqual([
      ['bot', 'Chat'],
      ['webhook', 'Signed hook'],
    ]);
    const setups = await db()
      .selectFrom('channel_setups')
      .select(['name', 'enabled', 'secret'])
      .where('fleet_id', '=', a.fid)
      .orderBy('name')
      .execute();
    expect(setups).toEqual([
      { name: 'Chat', enabled: 0, secret: null },
      { name: 'Office', enabled: 1, secret: null },
      { name: 'Plain hook', enabled: 0, secret: null },
      { name: 'Signed hook', enabled: 0, secret: null },
    ]);
    const docA = await exportOf(a.client, a.fid);
    for (const key of FLEET_TRANSFER_CSV_COLLECTIONS) expect(docA[key].length, key).toBeGreaterThan(0);
    expect(docA.version).toBe(FLEET_TRANSFER_VERSION);
    // Who accepted or corrected: a login the target fleet lacks becomes the importer.
    expect(docA.meter_readings.find((r) => r.status === 'refused')?.accepted_by).toBe('transfer-transfer-a');
    expect(docA.counter_corrections.map((c) => c.by)).toEqual(['transfer-transfer-a', 'transfer-transfer-a']);
    // An issue's reporter and closer by login too; its photo travels with it (version 5).
    expect(docA.issues).toEqual([
      expect.objectContaining({
        object_type: 't',
        title: 'Rear light flickers',
        status: 'closed',
        note: 'Loose plug',
        reported_by: 'transfer-transfer-a',
        ended_by: 'transfer-transfer-a',
        attachments: [expect.objectContaining({ name: 'light.txt', data: 'bGlnaHQ=' })],
      }),
    ]);
    expect(JSON.stringify(docA.notification_setups)).not.toContain('"secret"');

    const b = await emptyFleet('Transfer B');
    // A's admin is a member of B too, so that the logins of A's history map to the same user.
    const adminA = await db()
      .selectFrom('users')
      .select('id')
      .where('name', '=', 'transfer-transfer-a')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('fleet_users')
      .values({ fleet_id: b.fid, user_id: adminA.id, acl: ACL_ALL })
      .execute();
    const second = await b.client.post(`/api/fleets/${b.fid}/transfer`, { document: docA });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.matched.units).toBe(0);
    expect(second.body.ids.units).toHaveLength(docA.units.length);
    const docB = await exportOf(b.client, b.fid);
    const ca = canonical(docA);
    const cb = canonical(docB);
    for (const key of Object.keys(ca) as (keyof typeof ca)[]) expect(cb[key], key).toEqual(ca[key]);
    // No id of A leaks into B.
    const aUnits = new Set(docA.units.map((u) => u.id));
    expect(docB.units.some((u) => aUnits.has(u.id))).toBe(false);

    // The statistics aggregates of B are those of A (same fleet zone): closed services and fuel.
    const costs = async (fid: number) =>
      db()
        .selectFrom('cost_days')
        .select(['day', 'services_cost', 'services_count', 'fuel_cost', 'fuel_count', 'fuel_l'])
        .where('fleet_id', '=', fid)
        .where('object_type', '=', '*')
        .orderBy('day')
        .execute();
    const costsA = await costs(a.fid);
    expect(costsA.length).toBeGreaterThan(0);
    expect(await costs(b.fid)).toEqual(costsA);
    // The closed service's cost is the sum of its line items: 5 × 12.5 + 1 × 9.99.
    expect(costsA.reduce((s, r) => s + Number(r.services_cost), 0)).toBe(72_490);
  });

  it('round trip of the demo fleet as seeded', async () => {
    const docA = await exportOf(manager, t.demo.fleetId);
    const b = await emptyFleet('Transfer demo copy');
    const res = await b.client.post(`/api/fleets/${b.fid}/transfer`, { document: docA });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    const docB = await exportOf(b.client, b.fid);
    const ca = canonical(docA);
    const cb = canonical(docB);
    for (const key of [
      'units',
      'drivers',
      'trailers',
      'custom_fields',
      'line_items',
      'intervals',
      'assignments',
      'archive',
      'fuel_fillings',
    ] as const)
      expect(cb[key], key).toEqual(ca[key]);
    expect(cb.services.length).toBeGreaterThanOrEqual(ca.services.length);
  });

  it('imports into a non-empty fleet: objects, intervals and fields matched by name, history added', async () => {
    const c = await emptyFleet('Transfer C');
    expect(
      (await c.client.post(`/api/fleets/${c.fid}/transfer`, { document: sampleDocument(today) })).status,
    ).toBe(200);
    const before = await counts(c.fid);
    const again = await c.client.post(`/api/fleets/${c.fid}/transfer`, { document: sampleDocument(today) });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.matched).toMatchObject({
      units: 2,
      drivers: 1,
      trailers: 1,
      custom_fields: 4,
      intervals: 1,
      assignments: 2,
    });
    expect(again.body.created).toMatchObject({
      units: 0,
      intervals: 0,
      assignments: 0,
      services: 1,
      archive: 2,
      fuel_fillings: 2,
    });
    // The driver's assignment has its open service already: one open service per assignment (spec §4).
    expect(again.body.skipped.services).toBe(1);
    // The meter history and the set-ups of the first import are not added twice.
    expect(again.body.skipped).toMatchObject({ meter_readings: 2, counter_corrections: 2 });
    expect(again.body.matched.notification_setups).toBe(5);
    const after = await counts(c.fid);
    expect(after.units).toBe(before.units);
    expect(after.intervals).toBe(before.intervals);
    expect(after.custom_fields).toBe(before.custom_fields);
    expect(after.fuel_fillings).toBe(before.fuel_fillings! + 2);
    // The fuel fillings' files and the issue's (issues are history: added again, as fuel fillings).
    expect(after.attachments).toBe(before.attachments! + 3);
    // The first unit's id is the one made by the first import.
    const unit = await db()
      .selectFrom('units')
      .select('id')
      .where('fleet_id', '=', c.fid)
      .where('name', '=', 'Transfer truck 1')
      .execute();
    expect(unit).toHaveLength(1);
    expect(again.body.ids.units).toContainEqual([11, unit[0]!.id]);
  });

  it('refuses a bad document with 400 and stores nothing', async () => {
    const d = await emptyFleet('Transfer D');
    const before = await counts(d.fid);
    const broken = sampleDocument(today);
    broken.fuel_fillings[1]!.unit_id = 999; // a unit the document does not hold
    const res = await d.client.post(`/api/fleets/${d.fid}/transfer`, { document: broken });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(4);
    expect(res.body.details).toContainEqual(
      expect.objectContaining({ field: 'body.document.fuel_fillings.1.unit_id', message: 'Unknown unit' }),
    );
    const wrongFormat = await d.client.post(`/api/fleets/${d.fid}/transfer`, {
      document: { ...sampleDocument(today), format: 'other', version: 2 },
    });
    expect(wrongFormat.status).toBe(400);
    const notB64 = sampleDocument(today);
    notB64.archive[0]!.attachments[0]!.data = '***';
    expect((await d.client.post(`/api/fleets/${d.fid}/transfer`, { document: notB64 })).status).toBe(400);
    expect(await counts(d.fid)).toEqual(before);
  });

  it('needs admin on the target fleet; others fleets stay invisible', async () => {
    const e = await emptyFleet('Transfer E');
    const mechanic = await t.login('mechanic');
    const outsider = await t.login('outsider');
    const doc = sampleDocument(today);
    // The demo mechanic holds no admin bit on the demo fleet; the outsider is no member.
    expect((await mechanic.get(`/api/fleets/${t.demo.fleetId}/export`)).status).toBe(403);
    expect((await mechanic.post(`/api/fleets/${t.demo.fleetId}/transfer`, { document: doc })).status).toBe(
      403,
    );
    expect((await outsider.get(`/api/fleets/${t.demo.fleetId}/export`)).status).toBe(403);
    expect((await outsider.get(`/api/fleets/${t.demo.fleetId}/export/units.csv`)).status).toBe(403);
    // The admin of fleet E cannot read or write the demo fleet or the outsider's fleet.
    expect((await e.client.get(`/api/fleets/${t.demo.otherFleetId}/export`)).status).toBe(403);
    expect(
      (await e.client.post(`/api/fleets/${t.demo.otherFleetId}/transfer`, { document: doc })).status,
    ).toBe(403);
    // The export of E holds E's data only.
    const own = await exportOf(e.client, e.fid);
    expect(own.units).toEqual([]);
    expect(own.services).toEqual([]);
    // A super user holds admin on every fleet (spec §6).
    expect((await root.get(`/api/fleets/${e.fid}/export`)).status).toBe(200);
  });

  it('exports each collection as CSV with formula cells neutralised', async () => {
    const f = await emptyFleet('Transfer F');
    const doc = sampleDocument(today);
    doc.units[0]!.name = '=HYPERLINK("x")';
    expect((await f.client.post(`/api/fleets/${f.fid}/transfer`, { document: doc })).status).toBe(200);
    const units = await f.client.get(`/api/fleets/${f.fid}/export/units.csv`);
    expect(units.status).toBe(200);
    expect(units.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = String(units.body);
    expect(
      text.startsWith(
        'id,name,unit_type_id,mileage_km,engine_hours,cf,vin,make,model,year,plate,fuel_type,tank_capacity,tank_unit,tags,notes\r\n',
      ),
    ).toBe(true);
    // The vehicle profile of truck 1 (docs/product.md "The vehicle profile").
    expect(text).toContain('1M8GDM9AXKP042788,MAN,TGE,2021,B-FK 101,diesel,75.5,l,Vans; North,Roof rack');
    const raw = await fetch(`${t.url}/api/fleets/${f.fid}/export/units.csv`, {
      headers: { authorization: `SSID ${f.client.ssid}` },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    const fuel = await f.client.get(`/api/fleets/${f.fid}/export/fuel_fillings.csv`);
    expect(String(fuel.body).split('\r\n').filter(Boolean)).toHaveLength(3);
    expect(String(fuel.body)).toContain('55.25');
    expect((await f.client.get(`/api/fleets/${f.fid}/export/users.csv`)).status).toBe(400);
  });

  it('tells the other members: each record live, or "fleet changed" after a large import', async () => {
    const g = await emptyFleet('Transfer G');
    await createUser(t, {
      name: 'transfer-g-watcher',
      accountId,
      memberships: [{ fleetId: g.fid, acl: ACL_ALL }],
    });
    const watcher = await t.signIn('transfer-g-watcher');
    const socket = await EventsClient.connect(t.url, watcher.auth.session);
    try {
      const small = sampleDocument(today);
      expect((await g.client.post(`/api/fleets/${g.fid}/transfer`, { document: small })).status).toBe(200);
      await socket.next(
        (e) => e.s === 'avl_unit' && e.t === 'c' && (e.d as { nm: string }).nm === 'Transfer truck 1',
      );
      await socket.next((e) => e.s === 'fuelfilling' && e.t === 'c' && e.fid === g.fid);
      await socket.next((e) => e.s === 'service' && e.t === 'c' && e.fid === g.fid);

      const large = sampleDocument(today);
      const f = large.fuel_fillings[1]!;
      large.fuel_fillings = Array.from({ length: LIVE_EVENTS_MAX + 1 }, (_, i) => ({
        ...f,
        id: 1000 + i,
        filled_at: f.filled_at - i * 60,
      }));
      const before = socket.received.length;
      const res = await g.client.post(`/api/fleets/${g.fid}/transfer`, { document: large });
      expect(res.status).toBe(200);
      expect(res.body.created.fuel_fillings).toBe(LIVE_EVENTS_MAX + 1);
      await socket.next((e) => e.s === 'user' && (e.d as { type?: number; fid?: number }).type === 64);
      expect(socket.received.slice(before).filter((e) => e.s === 'fuelfilling')).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
