import {
  FUEL_ATTACHMENTS_MAX as MAX_FILES,
  FUEL_ATTACHMENT_BYTES_MAX as MAX_TOTAL_BYTES,
} from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsTester } from '../../test/attachments.js';
import { fuelFixture } from '../../test/fuel-fixture.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/** Fuel filling attachments (spec §5 "Attachments", §7; PRODUCT.md: 20 files, 32 MB, error 2). */
describe('fuel filling attachments', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof fuelFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let files: ReturnType<typeof attachmentsTester>;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await fuelFixture(t);
    files = attachmentsTester(t, fx.base, 'fuel');
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
  });
  afterAll(() => t?.close());

  const filling = async () => {
    const res = await manager.post(fx.base, { uid: await fx.unit(), volume: 10, price: 1 });
    return res.body.id as number;
  };

  it('uploads, lists, counts and downloads the bytes with the original name and a safe type', async () => {
    const id = await filling();
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 255]);
    const up = await files.upload(mechanic, id, [
      { name: 'Quittung Tankstelle.pdf', type: 'application/pdf', data: pdf },
      { name: 'x.svg', type: 'image/svg+xml', data: new TextEncoder().encode('<svg/>') },
    ]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.attachments.map((a: any) => [a.name, a.size, a.content_type])).toEqual([
      ['Quittung Tankstelle.pdf', 6, 'application/pdf'],
      ['x.svg', 6, 'image/svg+xml'],
    ]);
    expect((await viewer.get(files.url(id))).body.attachments).toHaveLength(2);
    expect((await viewer.get(`${fx.base}/${id}`)).body.ats).toBe(2);
    const [first, second] = up.body.attachments;
    const res = await fetch(`${t.url}${files.url(id)}/${first.id}`, {
      headers: { authorization: `SSID ${viewer.ssid}` },
    });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('filename="Quittung Tankstelle.pdf"');
    const svg = await fetch(`${t.url}${files.url(id)}/${second.id}`, {
      headers: { authorization: `SSID ${viewer.ssid}` },
    });
    expect(svg.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('refuses the 21st file and more than 32 MB in total with error 2, storing nothing of the call', async () => {
    const id = await filling();
    const small = (i: number) => ({ name: `r${i}.txt`, data: new TextEncoder().encode(`receipt ${i}`) });
    expect(
      (
        await files.upload(
          manager,
          id,
          Array.from({ length: MAX_FILES - 1 }, (_, i) => small(i)),
        )
      ).status,
    ).toBe(200);
    const over = await files.upload(manager, id, [small(98), small(99)]);
    expect(over.status).toBe(413);
    expect(over.body.error).toBe(2);
    expect(await files.stored(id)).toBe(MAX_FILES - 1);
    expect((await files.upload(manager, id, [small(100)])).status).toBe(200);
    expect((await files.upload(manager, id, [small(101)])).body.error).toBe(2);
    expect(await files.stored(id)).toBe(MAX_FILES);

    const big = await filling();
    const half = new Uint8Array(MAX_TOTAL_BYTES / 2);
    const tooBig = await files.upload(manager, big, [
      { name: 'a.bin', data: half },
      { name: 'b.bin', data: new Uint8Array(MAX_TOTAL_BYTES / 2 + 1) },
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe(2);
    expect(await files.stored(big)).toBe(0);
    expect((await files.upload(manager, big, [{ name: 'a.bin', data: half }])).status).toBe(200);
    expect(await files.stored(big)).toBe(1);
  });

  it('refuses a body that is no file list with error 4; viewers only read; deleting the filling takes its files', async () => {
    const id = await filling();
    const json = await manager.post(files.url(id), { files: [] });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: 4, reason: 'Invalid input' });
    const up = await files.upload(manager, id, [{ name: 'a.txt', data: new Uint8Array([1, 2]) }]);
    const aid = up.body.attachments[0].id;
    expect((await files.upload(viewer, id, [{ name: 'b.txt', data: new Uint8Array([1]) }])).status).toBe(403);
    expect((await viewer.delete(`${files.url(id)}/${aid}`)).status).toBe(403);
    expect((await mechanic.delete(`${files.url(id)}/${aid}`)).body).toEqual({ error: 0 });
    expect((await mechanic.delete(`${files.url(id)}/${aid}`)).status).toBe(404);
    await files.upload(manager, id, [{ name: 'c.txt', data: new Uint8Array([3]) }]);
    expect(await files.stored(id)).toBe(1);
    expect((await manager.delete(`${fx.base}/${id}`)).status).toBe(200);
    expect(await files.stored(id)).toBe(0);
    expect((await viewer.get(files.url(id))).status).toBe(404);
    const outsider = await t.login('outsider');
    expect((await outsider.get(files.url(id))).status).toBe(403);
  });
});
