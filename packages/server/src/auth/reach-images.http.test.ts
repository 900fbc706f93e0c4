import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsTester } from '../test/attachments.js';
import { type Client, startTestServer, type TestServer } from '../test/harness.js';

/** A 1×1 PNG, as a signature pad sends it. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * Photos and signatures reach-checked (auth/reach.ts, docs/product.md "Vehicle assignments"): the demo
 * driver (assigned the Scania R450 only) lists and downloads the photos of his truck's issues and the
 * signatures of its inspections; those of another unit answer 404 as an unknown issue or inspection
 * would, and he cannot add photos to another unit's issue; the manager reads both.
 */
describe('images of issues and inspections for a driver with assigned units only', () => {
  let t: TestServer;
  let driver: Client;
  let manager: Client;
  let api: string;
  let truck: number;
  let other: number;
  const unitId = async (name: string) =>
    (
      await t.server.ctx.db.kysely
        .selectFrom('units')
        .select('id')
        .where('fleet_id', '=', t.demo.fleetId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).id;
  const photo = { name: 'leak.png', type: 'image/png', data: new Uint8Array([137, 80, 78, 71, 13, 10, 26]) };

  beforeAll(async () => {
    t = await startTestServer();
    api = `/api/fleets/${t.demo.fleetId}`;
    driver = await t.login('driver');
    manager = await t.login('manager');
    truck = await unitId('Scania R450');
    other = await unitId('Volvo FH16 #1');
  });
  afterAll(async () => t?.close());

  it('issue photos: his truck’s answer, another unit’s answer 404', async () => {
    const files = attachmentsTester(t, `${api}/issues`, 'issue');
    const issueOf = async (unit: number) => {
      const made = await manager.post(`${api}/issues`, {
        object_type: 'u',
        object_id: unit,
        title: 'Oil leak',
        priority: 'medium',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const up = await files.upload(manager, made.body.id, [photo]);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      return { id: made.body.id as number, aid: up.body.attachments[0].id as number };
    };
    const mine = await issueOf(truck);
    const theirs = await issueOf(other);

    expect((await driver.get(`${api}/issues/${mine.id}/attachments`)).body.attachments).toHaveLength(1);
    expect((await driver.get(`${api}/issues/${mine.id}/attachments/${mine.aid}`)).status).toBe(200);

    const list = await driver.get(`${api}/issues/${theirs.id}/attachments`);
    expect(list.status).toBe(404);
    expect(list.body).toMatchObject({ error: 5, reason: 'Issue not found' });
    const download = await driver.get(`${api}/issues/${theirs.id}/attachments/${theirs.aid}`);
    expect(download.status).toBe(404);
    expect(download.body).toMatchObject({ error: 5, reason: 'Issue not found' });
    const added = await files.upload(driver, theirs.id, [photo]);
    expect(added.status).toBe(404);
    expect(await files.stored(theirs.id)).toBe(1);

    expect((await manager.get(`${api}/issues/${theirs.id}/attachments/${theirs.aid}`)).status).toBe(200);
  });

  it('inspection signatures: his truck’s answer, another unit’s answer 404', async () => {
    const forms = await manager.get(`${api}/inspection-forms`);
    const dvir = forms.body.forms.find((f: { bi: string | null }) => f.bi === 'dvir');
    const inspect = async (who: Client, unit: number) => {
      const res = await who.post(`${api}/inspections`, {
        fm: dvir.id,
        ot: 'u',
        oi: unit,
        res: Array.from({ length: 11 }, (_, i) => ({ i, ok: true })),
        sig: PNG,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { id: res.body.id as number, sig: res.body.sig as number };
    };
    const mine = await inspect(driver, truck);
    const theirs = await inspect(manager, other);

    const own = await driver.get(`${api}/inspections/${mine.id}/attachments/${mine.sig}`);
    expect(own.status).toBe(200);
    const refused = await driver.get(`${api}/inspections/${theirs.id}/attachments/${theirs.sig}`);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: 5, reason: 'Inspection not found' });
    // An unknown attachment of his own inspection stays an unknown attachment.
    const unknown = await driver.get(`${api}/inspections/${mine.id}/attachments/${theirs.sig}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ reason: 'Attachment not found' });

    expect((await manager.get(`${api}/inspections/${theirs.id}/attachments/${theirs.sig}`)).status).toBe(200);
  });
});
