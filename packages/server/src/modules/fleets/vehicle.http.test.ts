import { ACL_ALL, type FleetTransferDocument, UNIT_PHOTO_BYTES_MAX } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsTester } from '../../test/attachments.js';
import { accountOf, type Client, createFleet, createUser, type TestServer } from '../../test/harness.js';
import * as fixture from '../../test/removal-fixture.js';
import { PHOTO_PNG } from '../fleet-transfer/fixtures/document.js';

/**
 * The vehicle profile of a unit (docs/product.md "The vehicle profile"): create and update with the
 * profile, the VIN refused for its characters and length but accepted with a wrong check digit, the tank
 * capacity in the fleet's fuel unit, tags normalised, the GET → PUT round trip, the photo as the unit's
 * one image attachment, other fleets' units invisible, and the fleet export → import round trip keeping
 * profile and photo. Runs on SQLite and PostgreSQL (TEST_DB).
 */
describe('vehicle profile', () => {
  let t: TestServer;
  let admin: Client;
  let mechanic: Client;
  let viewer: Client;
  let outsider: Client;
  let base: string;
  const png = Buffer.from(PHOTO_PNG, 'base64');

  beforeAll(async () => {
    ({ t, admin, mechanic, outsider, base } = await fixture.startObjectsAdmin());
    viewer = await t.login('viewer');
  });
  afterAll(() => t.close());

  const unitIn = async (client: Client, id: number) =>
    ((await client.get(`${base}/units`)).body.units as { id: number }[]).find((u) => u.id === id) as any;
  let serial = 0;
  const makeUnit = async (vp?: Record<string, unknown>) => {
    serial += 1;
    const res = await admin.post(`${base}/units`, {
      nm: `Vehicle ${serial}`,
      uid: `veh-${serial}`,
      ut: null,
      vp,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('creates a unit with a profile; texts trimmed, VIN in capitals, tags without duplicates', async () => {
    const unit = await makeUnit({
      vin: '1m8gdm9a-xkp042788',
      mk: ' Mercedes-Benz ',
      md: 'Sprinter',
      yr: 2019,
      pl: 'B-XY 123',
      ft: 'diesel',
      tc: 71.5,
      tg: ['Vans', ' vans ', 'North'],
      nt: 'Spare key in the office',
    });
    expect(unit.vp).toEqual({
      vin: '1M8GDM9AXKP042788',
      mk: 'Mercedes-Benz',
      md: 'Sprinter',
      yr: 2019,
      pl: 'B-XY 123',
      ft: 'diesel',
      // No unit given: the fleet's (the demo fleet measures litres).
      tc: 71.5,
      tu: 1,
      tg: ['Vans', 'North'],
      nt: 'Spare key in the office',
    });
    expect(unit.ph).toBeNull();
    expect(await unitIn(viewer, unit.id)).toEqual(unit);
  });

  it('a unit without a profile has an empty one', async () => {
    const unit = await makeUnit();
    expect(unit.vp).toEqual({
      vin: '',
      mk: '',
      md: '',
      yr: null,
      pl: '',
      ft: '',
      tc: null,
      tu: null,
      tg: [],
      nt: '',
    });
  });

  it('updates only the fields given; the unit as read is a no-op', async () => {
    const unit = await makeUnit({ mk: 'Ford', tg: ['A'] });
    const res = await mechanic.put(`${base}/units/${unit.id}`, { vp: { pl: 'M-AB 1', tc: 20, tu: 2 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.vp).toMatchObject({ mk: 'Ford', pl: 'M-AB 1', tc: 20, tu: 2, tg: ['A'] });
    const read = await unitIn(mechanic, unit.id);
    const again = await mechanic.put(`${base}/units/${unit.id}`, read);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual(read);
    // Clearing: null capacity and year, empty texts and tags.
    const cleared = await mechanic.put(`${base}/units/${unit.id}`, {
      vp: { mk: '', pl: '', tc: null, yr: null, tg: [] },
    });
    expect(cleared.body.vp).toMatchObject({ mk: '', pl: '', tc: null, tu: null, yr: null, tg: [] });
  });

  it('refuses a VIN of wrong characters or length, accepts a wrong check digit', async () => {
    const unit = await makeUnit();
    for (const vin of ['1M8GDM9AXKP04278O', '1M8GDM9AXKP0427', 'IM8GDM9AXKP042788']) {
      const res = await admin.put(`${base}/units/${unit.id}`, { vp: { vin } });
      expect(res.status, vin).toBe(400);
      expect(res.body.error).toBe(4);
      expect(JSON.stringify(res.body.details)).toContain('vp.vin');
    }
    // A European VIN without a check digit is stored (a warning in the browser only).
    const eu = await admin.put(`${base}/units/${unit.id}`, { vp: { vin: 'WVWZZZ1JZXW000001' } });
    expect(eu.status).toBe(200);
    expect(eu.body.vp.vin).toBe('WVWZZZ1JZXW000001');
    const create = await admin.post(`${base}/units`, {
      nm: 'bad vin',
      uid: 'veh-bad',
      ut: null,
      vp: { vin: 'Q' },
    });
    expect(create.status).toBe(400);
  });

  it('refuses a year, capacity or tags out of range', async () => {
    const unit = await makeUnit();
    for (const vp of [
      { yr: 1700 },
      { tc: -1 },
      { tc: 1.2345 },
      { ft: 'steam' },
      { tg: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      { tg: ['x'.repeat(33)] },
    ]) {
      const res = await admin.put(`${base}/units/${unit.id}`, { vp });
      expect(res.status, JSON.stringify(vp)).toBe(400);
    }
  });

  it('the photo: one image per unit, replaced in one request (a failed upload keeps it), removed with it', async () => {
    const unit = await makeUnit();
    const photos = attachmentsTester(t, `${base}/units`, 'unit');
    const refused = await photos.upload(mechanic, unit.id, [
      { name: 'notes.txt', type: 'text/plain', data: png },
    ]);
    expect(refused.status).toBe(400);
    expect(await photos.stored(unit.id)).toBe(0);
    const up = await photos.upload(mechanic, unit.id, [{ name: 'van.png', type: 'image/png', data: png }]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const aid = up.body.attachments[0].id;
    expect((await unitIn(viewer, unit.id)).ph).toBe(aid);
    const bytesOf = async (id: number) => {
      const file = await fetch(`${t.url}${base}/units/${unit.id}/attachments/${id}`, {
        headers: { authorization: `SSID ${viewer.ssid}` },
      });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(id === aid ? 'image/png' : 'image/webp');
      return Buffer.from(await file.arrayBuffer());
    };
    expect(await bytesOf(aid)).toEqual(png);
    // Replacements that fail keep the photo: too large (error 2), not an image, two files at once.
    const big = Buffer.alloc(UNIT_PHOTO_BYTES_MAX + 1, 1);
    const failures = [
      [{ name: 'big.png', type: 'image/png', data: big }],
      [{ name: 'b.txt', type: 'text/plain', data: png }],
      [
        { name: 'b.png', type: 'image/png', data: png },
        { name: 'c.png', type: 'image/png', data: png },
      ],
    ];
    for (const files of failures) {
      const failed = await photos.upload(mechanic, unit.id, files);
      expect(failed.status, files.map((f) => f.name).join()).toBeGreaterThanOrEqual(400);
      expect(await photos.stored(unit.id)).toBe(1);
      expect((await unitIn(viewer, unit.id)).ph).toBe(aid);
      expect(await bytesOf(aid)).toEqual(png);
    }
    expect((await photos.upload(mechanic, unit.id, [failures[0]![0]!])).body.error).toBe(2);
    // A new photo replaces the old one in one request: one file, the unit names the new one.
    const webp = Buffer.concat([Buffer.from('RIFF0000WEBPVP8 '), png]);
    const swapped = await photos.upload(mechanic, unit.id, [
      { name: 'new.webp', type: 'image/webp', data: webp },
    ]);
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect(swapped.body.attachments).toHaveLength(1);
    const newId = swapped.body.attachments[0].id as number;
    expect(newId).not.toBe(aid);
    expect(await photos.stored(unit.id)).toBe(1);
    expect((await unitIn(viewer, unit.id)).ph).toBe(newId);
    expect(await bytesOf(newId)).toEqual(webp);
    expect((await viewer.get(`${base}/units/${unit.id}/attachments/${aid}`)).status).toBe(404);
    // The viewer may see it but not change it, nor replace it.
    expect(
      (await photos.upload(viewer, unit.id, [{ name: 'v.png', type: 'image/png', data: png }])).status,
    ).toBe(403);
    expect((await unitIn(viewer, unit.id)).ph).toBe(newId);
    expect((await viewer.delete(`${base}/units/${unit.id}/attachments/${newId}`)).status).toBe(403);
    expect((await mechanic.delete(`${base}/units/${unit.id}/attachments/${newId}`)).status).toBe(200);
    expect((await unitIn(viewer, unit.id)).ph).toBeNull();
    const again = await photos.upload(mechanic, unit.id, [{ name: 'c.png', type: 'image/png', data: png }]);
    expect(again.status).toBe(200);
    expect((await admin.delete(`${base}/units/${unit.id}`)).status).toBe(200);
    expect(await photos.stored(unit.id)).toBe(0);
  });

  it("another fleet's units, profiles and photos are invisible", async () => {
    const unit = await makeUnit({ pl: 'SECRET 1' });
    expect((await outsider.get(`${base}/units`)).status).toBe(403);
    expect((await outsider.put(`${base}/units/${unit.id}`, { vp: { pl: 'X' } })).status).toBe(403);
    expect((await outsider.get(`${base}/units/${unit.id}/attachments`)).status).toBe(403);
    // Through a fleet the caller does administer: the unit is not in it (404), nothing changes.
    const other = `/api/fleets/${t.demo.otherFleetId}`;
    const root = await t.login('root');
    expect((await root.put(`${other}/units/${unit.id}`, { vp: { pl: 'X' } })).status).toBe(404);
    expect((await root.get(`${other}/units/${unit.id}/attachments`)).status).toBe(404);
    const others = (await root.get(`${other}/units`)).body.units as { vp: { pl: string } }[];
    expect(others.some((u) => u.vp.pl === 'SECRET 1')).toBe(false);
    expect((await unitIn(admin, unit.id)).vp.pl).toBe('SECRET 1');
  });

  it('export → import into an empty fleet keeps the profile and the photo', async () => {
    const unit = await makeUnit({
      vin: '1HGCM82633A004352',
      mk: 'Honda',
      pl: 'K-TR 9',
      tc: 17,
      tu: 2,
      tg: ['Cars'],
    });
    const photos = attachmentsTester(t, `${base}/units`, 'unit');
    expect(
      (await photos.upload(admin, unit.id, [{ name: 'car.png', type: 'image/png', data: png }])).status,
    ).toBe(200);
    const manager = await t.login('manager');
    const doc = (await manager.get(`/api/fleets/${t.demo.fleetId}/export`)).body as FleetTransferDocument;
    const exported = doc.units.find((u) => u.id === unit.id)!;
    expect(exported.vp).toEqual((await unitIn(admin, unit.id)).vp);
    expect(exported.attachments).toEqual([
      expect.objectContaining({ name: 'car.png', content_type: 'image/png', data: PHOTO_PNG }),
    ]);

    const accountId = await accountOf(t, 'manager');
    const fid = await createFleet(t, accountId, 'Vehicle import');
    await createUser(t, { name: 'vehicle-import', accountId, memberships: [{ fleetId: fid, acl: ACL_ALL }] });
    const target = await t.login('vehicle-import');
    const res = await target.post(`/api/fleets/${fid}/transfer`, { document: doc });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    const units = (await target.get(`/api/fleets/${fid}/units`)).body.units as any[];
    const copy = units.find((u) => u.nm === unit.nm)!;
    expect(copy.vp).toEqual(exported.vp);
    expect(copy.ph).not.toBeNull();
    const file = await fetch(`${t.url}/api/fleets/${fid}/units/${copy.id}/attachments/${copy.ph}`, {
      headers: { authorization: `SSID ${target.ssid}` },
    });
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    // The export of the new fleet carries them again.
    const docB = (await target.get(`/api/fleets/${fid}/export`)).body as FleetTransferDocument;
    expect(docB.units.find((u) => u.name === unit.nm)).toMatchObject({
      vp: exported.vp,
      attachments: [{ data: PHOTO_PNG }],
    });
  });
});
