import type { LiveEvent } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';

/**
 * Live events of a member limited to assigned units (events/visibility.ts, auth/reach.ts): the demo
 * driver (driver preset, the Scania R450 assigned) hears of his truck's issues, inspections and unit
 * changes and of nothing about other units; assigning him another unit lets its events through.
 */
/** A 1×1 PNG, as a signature pad sends it. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('live events of a driver with assigned units only', () => {
  let t: TestServer;
  let driver: Client;
  let manager: Client;
  let fid: number;
  let api: string;
  let truck: number;
  let other: number;
  const unitId = async (name: string) =>
    (
      await t.server.ctx.db.kysely
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', fid)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  /** Whether an event concerns the unit (its payload, as the web reads it). */
  const about = (e: LiveEvent, unit: number) => {
    const d = e.d as Record<string, unknown>;
    return d.id === unit || d.uid === unit || d.object_id === unit || d.unitId === unit;
  };
  const report = async (unit: number, title: string) => {
    const res = await manager.post(`${api}/issues`, {
      object_type: 'u',
      object_id: unit,
      title,
      priority: 'low',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };

  /** Submits the built-in DVIR on a unit, every item passed, and answers the inspection's id. */
  const inspect = async (who: Client, unit: number) => {
    const forms = await who.get(`${api}/inspection-forms`);
    const dvir = forms.body.forms.find((f: { bi: string | null }) => f.bi === 'dvir');
    const res = await who.post(`${api}/inspections`, {
      fm: dvir.id,
      ot: 'u',
      oi: unit,
      res: Array.from({ length: 11 }, (_, i) => ({ i, ok: true })),
      sig: PNG,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };

  beforeAll(async () => {
    t = await startTestServer();
    fid = t.demo.fleetId;
    api = `/api/fleets/${fid}`;
    driver = await t.login('driver');
    manager = await t.login('manager');
    truck = await unitId('Scania R450');
    other = await unitId('Volvo FH16 #1');
  });
  afterAll(async () => t?.close());

  it('sends the driver the events of his truck only; the manager hears of both', async () => {
    const driverEvents = await EventsClient.connect(t.url, driver.ssid);
    const managerEvents = await EventsClient.connect(t.url, manager.ssid);

    // Another unit: an issue reported and deleted, the unit changed, one of its inspections deleted.
    const elsewhere = await report(other, 'Mirror cracked');
    expect((await manager.delete(`${api}/issues/${elsewhere}`)).status).toBe(200);
    const units = (await manager.get(`${api}/units`)).body.units as { id: number; cnm: number }[];
    const unit = units.find((u) => u.id === other)!;
    expect((await manager.put(`${api}/units/${other}`, { cnm: unit.cnm + 5 })).status).toBe(200);
    const inspection = await inspect(manager, other);
    expect((await manager.delete(`${api}/inspections/${inspection}`)).status).toBe(200);

    // His truck: an issue reported, then deleted; the last event is the marker that all came through.
    const mine = await report(truck, 'Wiper torn');
    expect((await manager.delete(`${api}/issues/${mine}`)).status).toBe(200);
    const own = await inspect(driver, truck);
    await driverEvents.next((e) => e.s === 'issue' && e.t === 'c' && about(e, truck));
    await driverEvents.next((e) => e.s === 'inspection' && e.t === 'c' && (e.d as { id: number }).id === own);
    await driverEvents.next((e) => e.s === 'issue' && e.t === 'd' && (e.d as { id: number }).id === mine);
    await managerEvents.next((e) => e.s === 'issue' && e.t === 'd' && (e.d as { id: number }).id === mine);

    const heard = driverEvents.received.filter((e) => e.fid === fid);
    expect(heard.filter((e) => about(e, other))).toEqual([]);
    expect(heard.some((e) => e.s === 'issue' && (e.d as { id: number }).id === elsewhere)).toBe(false);
    expect(heard.some((e) => e.s === 'inspection' && (e.d as { id: number }).id === inspection)).toBe(false);
    expect(heard.some((e) => e.s === 'avl_unit')).toBe(false);
    // Nothing server-side leaks onto the wire.
    expect(heard.every((e) => !('on' in e) && !('by' in e))).toBe(true);
    // The manager heard of the other unit's issue, its change and the inspection's deletion.
    expect(
      managerEvents.received.some((e) => e.s === 'issue' && (e.d as { id: number }).id === elsewhere),
    ).toBe(true);
    expect(managerEvents.received.some((e) => e.s === 'avl_unit' && about(e, other))).toBe(true);
    expect(
      managerEvents.received.some((e) => e.s === 'inspection' && (e.d as { id: number }).id === inspection),
    ).toBe(true);
    driverEvents.close();
    managerEvents.close();
  });

  it('lets the events of a unit through once it is assigned to the driver', async () => {
    const driverEvents = await EventsClient.connect(t.url, driver.ssid);
    const assigned = await manager.post(`${api}/vehicle-assignments`, {
      uid: other,
      drv: t.demo.users.driver,
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    await driverEvents.next((e) => e.s === 'assignment' && about(e, other));
    const issue = await report(other, 'Horn silent');
    await driverEvents.next((e) => e.s === 'issue' && (e.d as { id: number }).id === issue);

    // Ended again: the unit's events stop.
    const end = await manager.delete(`${api}/vehicle-assignments/${assigned.body.id}`);
    expect(end.status).toBe(200);
    await driverEvents.next((e) => e.s === 'assignment' && e.t === 'd');
    const later = await report(other, 'Lamp out');
    const marker = await report(truck, 'Marker');
    await driverEvents.next((e) => e.s === 'issue' && (e.d as { id: number }).id === marker);
    expect(driverEvents.received.some((e) => e.s === 'issue' && (e.d as { id: number }).id === later)).toBe(
      false,
    );
    driverEvents.close();
  });
});
