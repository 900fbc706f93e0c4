import type { Client, TestServer } from './harness.js';

/** A file as a test uploads it. */
export interface TestFile {
  name: string;
  type?: string;
  data: Uint8Array;
}

/**
 * Upload and count helpers for an attachments collection (`{base}/{id}/attachments`, spec §5
 * "Attachments"), shared by the services and fuel filling attachment tests.
 */
export function attachmentsTester(t: TestServer, base: string, ownerType: string) {
  const url = (id: number) => `${base}/${id}/attachments`;

  /** POSTs `files` (and plain form fields) as multipart/form-data, the way the browser does. */
  async function upload(client: Client, id: number, files: TestFile[], fields: Record<string, string> = {}) {
    const form = new FormData();
    for (const f of files) form.append('file', new Blob([f.data], { type: f.type ?? '' }), f.name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch(t.url + url(id), {
      method: 'POST',
      headers: { authorization: `SSID ${client.ssid}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Attachments stored for the owner, counted in the database. */
  const stored = async (id: number) =>
    Number(
      (
        await t.server.ctx.db.kysely
          .selectFrom('attachments')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner_type', '=', ownerType)
          .where('owner_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  return { url, upload, stored };
}
