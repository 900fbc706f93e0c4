import {
  SERVICE_ATTACHMENTS_MAX as MAX_FILES,
  SERVICE_ATTACHMENT_BYTES_MAX as MAX_TOTAL_BYTES,
} from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentsTester } from '../../test/attachments.js';
import { EventsClient } from '../../test/events-client.js';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';
import { servicesFixture } from '../../test/services-fixtures.js';

/** Service attachments (PRODUCT.md "Services"; spec §5 "Attachments"): stored in the database, capped. */
describe('service attachments', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;
  let manager: Client;
  let mechanic: Client;
  let viewer: Client;
  let files: ReturnType<typeof attachmentsTester>;

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
    files = attachmentsTester(t, fx.base, 'service');
    manager = await t.login('manager');
    mechanic = await t.login('mechanic');
    viewer = await t.login('viewer');
  });
  afterAll(() => t.close());

  const service = async (f = 1) => {
    const uid = await fx.unit();
    const res = await manager.post(fx.base, { n: 'With files', t: 'u', uid, f });
    return res.body.id as number;
  };

  it('uploads files, lists them, and downloads identical bytes with the original name and a safe type', async () => {
    const id = await service();
    const events = await EventsClient.connect(t.url, viewer.ssid);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const html = new TextEncoder().encode('<script>alert(1)</script>');
    const up = await files.upload(mechanic, id, [
      { name: 'Rechnung März "1".png', type: 'image/png', data: png },
      { name: 'page.html', type: 'text/html', data: html },
    ]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.attachments.map((a: any) => [a.name, a.size, a.content_type])).toEqual([
      ['Rechnung März "1".png', 8, 'image/png'],
      ['page.html', html.length, 'text/html'],
    ]);
    await events.next(
      (e) => e.s === 'service' && e.t === 'u' && (e.d as any).id === id && (e.d as any).ats === 2,
    );
    events.close();
    const list = await viewer.get(files.url(id));
    expect(list.body.attachments).toHaveLength(2);
    expect(list.body.attachments[0]).toEqual({
      id: up.body.attachments[0].id,
      name: 'Rechnung März "1".png',
      size: 8,
      content_type: 'image/png',
      created: expect.any(Number),
    });
    const [first, second] = up.body.attachments;
    const res = await fetch(`${t.url}${files.url(id)}/${first.id}`, {
      headers: { authorization: `SSID ${viewer.ssid}` },
    });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Rechnung M_rz _1_.png"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%221%22.png`,
    );
    const risky = await fetch(`${t.url}${files.url(id)}/${second.id}`, {
      headers: { authorization: `SSID ${viewer.ssid}` },
    });
    expect(risky.headers.get('content-type')).toBe('application/octet-stream');
    expect(await risky.text()).toBe('<script>alert(1)</script>');
    expect((await manager.get(fx.base)).body.services.find((s: any) => s.id === id).ats).toBe(2);
  });

  it('refuses the 21st file and more than 32 MB in total with error 2, storing nothing', async () => {
    const id = await service();
    const small = (i: number) => ({
      name: `f${i}.txt`,
      type: 'text/plain',
      data: new TextEncoder().encode(`file ${i}`),
    });
    expect(
      (
        await files.upload(
          manager,
          id,
          Array.from({ length: 19 }, (_, i) => small(i)),
        )
      ).status,
    ).toBe(200);
    const over = await files.upload(manager, id, [small(19), small(20)]);
    expect(over.status).toBe(413);
    expect(over.body.error).toBe(2);
    expect(await files.stored(id)).toBe(19);
    expect((await files.upload(manager, id, [small(19)])).status).toBe(200);
    expect((await files.upload(manager, id, [small(20)])).status).toBe(413);
    expect(await files.stored(id)).toBe(MAX_FILES);

    const big = await service();
    const half = new Uint8Array(MAX_TOTAL_BYTES / 2);
    const tooBig = await files.upload(manager, big, [
      { name: 'a.bin', data: half },
      { name: 'b.bin', data: new Uint8Array(MAX_TOTAL_BYTES / 2 + 1) },
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe(2);
    expect(await files.stored(big)).toBe(0);
    const fits = await files.upload(manager, big, [{ name: 'a.bin', data: half }]);
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(
      (await files.upload(manager, big, [{ name: 'c.bin', data: new Uint8Array(MAX_TOTAL_BYTES / 2 + 1) }]))
        .status,
    ).toBe(413);
    expect(await files.stored(big)).toBe(1);
  });

  it('two uploads at once cannot together pass the cap: one is stored, the other refused whole', async () => {
    const id = await service();
    const batch = (tag: string) =>
      Array.from({ length: 15 }, (_, i) => ({
        name: `${tag}-${i}.txt`,
        data: new TextEncoder().encode(tag),
      }));
    const replies = await Promise.all([
      files.upload(manager, id, batch('a')),
      files.upload(manager, id, batch('b')),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 413]);
    expect(replies.find((r) => r.status === 413)?.body.error).toBe(2);
    expect(await files.stored(id)).toBe(15);
  });

  it('refuses non-file parts, empty uploads and bodies that are not multipart with error 4', async () => {
    const id = await service();
    const field = await files.upload(manager, id, [{ name: 'a.txt', data: new Uint8Array([1]) }], {
      note: 'x',
    });
    expect(field.status).toBe(400);
    expect(field.body).toMatchObject({ error: 4, reason: 'Invalid input' });
    expect((await files.upload(manager, id, [])).body.error).toBe(4);
    const json = await manager.post(files.url(id), { files: [] });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe(4);
    expect(await files.stored(id)).toBe(0);
  });

  it('deletes; viewers only read; archived services need archiveEdit', async () => {
    const id = await service();
    const up = await files.upload(manager, id, [{ name: 'a.txt', data: new Uint8Array([1, 2]) }]);
    const aid = up.body.attachments[0].id;
    expect((await files.upload(viewer, id, [{ name: 'b.txt', data: new Uint8Array([1]) }])).status).toBe(403);
    expect((await viewer.delete(`${files.url(id)}/${aid}`)).status).toBe(403);
    await manager.put(`${fx.base}/${id}`, { f: 8 });
    expect((await files.upload(mechanic, id, [{ name: 'b.txt', data: new Uint8Array([1]) }])).status).toBe(
      403,
    );
    expect((await mechanic.delete(`${files.url(id)}/${aid}`)).status).toBe(403);
    expect((await files.upload(manager, id, [{ name: 'b.txt', data: new Uint8Array([1]) }])).status).toBe(
      200,
    );
    expect((await manager.delete(`${files.url(id)}/${aid}`)).status).toBe(200);
    expect((await manager.delete(`${files.url(id)}/${aid}`)).status).toBe(404);
    expect((await viewer.get(`${files.url(id)}/${aid}`)).status).toBe(404);
    expect(await files.stored(id)).toBe(1);
    const outsider = await t.login('outsider');
    expect((await outsider.get(files.url(id))).status).toBe(403);
    expect((await outsider.get(`/api/fleets/${t.demo.otherFleetId}/services/${id}/attachments`)).status).toBe(
      404,
    );
  });
});
