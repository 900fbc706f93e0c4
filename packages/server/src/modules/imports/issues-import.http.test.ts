import { guessImportMapping, mapImportRows } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The issues import (docs/product.md "Issues", "Imports"): POST …/import/issues with a Fleetio-like
 * CSV (units and trailers by name, priority, reported date, status): the issues exist as reported,
 * resolved or closed; row errors answer 400 with nothing written; the viewer may not import; another
 * fleet's unit is unknown here.
 */
describe('issues import', () => {
  let t: TestServer;
  let manager: Client;
  let viewer: Client;
  let fid: number;
  let base: string;
  let truck: { id: number; nm: string };
  let trailer: { id: number; n: string };

  beforeAll(async () => {
    t = await startTestServer();
    [manager, viewer] = await Promise.all([t.login('manager'), t.login('viewer')]);
    fid = t.demo.fleetId;
    base = `/api/fleets/${fid}/import/issues`;
    truck = (await manager.get(`/api/fleets/${fid}/units`)).body.units[0];
    trailer = (await manager.get(`/api/fleets/${fid}/trailers`)).body.trailers[0];
  });
  afterAll(() => t?.close());

  const post = (client: Client, rows: Record<string, string>[]) =>
    client.post(base, { date_format: 'DD.MM.YYYY', rows });
  const issuesTitled = (prefix: string) =>
    t.server.ctx.db.kysely
      .selectFrom('issues')
      .selectAll()
      .where('fleet_id', '=', fid)
      .where('title', 'like', `${prefix}%`)
      .orderBy('id')
      .execute();

  it('imports a CSV: columns guessed, objects by name, statuses and dates as given', async () => {
    const csv = [
      'Vehicle,Summary,Description,Priority,Reported date,Status',
      `${truck.nm},Imp mirror cracked,Left mirror,high,02.01.2026,open`,
      `${trailer.n},Imp door seal,,low,03.01.2026,resolved`,
      `${truck.nm},Imp rattle,,,,Not a defect`,
    ].join('\n');
    const parsed = await fetch(`${t.url}${base}/parse?name=issues.csv`, {
      method: 'POST',
      headers: { authorization: `SSID ${manager.ssid}`, 'content-type': 'application/octet-stream' },
      body: Buffer.from(csv),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { rows: string[][] } }));
    expect(parsed.status).toBe(200);
    const mapping = guessImportMapping('issues', parsed.body.rows[0]!);
    expect(Object.keys(mapping).sort()).toEqual(
      ['description', 'object', 'priority', 'reported_date', 'status', 'title'].sort(),
    );
    const res = await post(manager, mapImportRows(parsed.body.rows, mapping, true));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ kind: 'issues', created: 3, rows: 3 });

    const stored = await issuesTitled('Imp ');
    expect(
      stored.map((i) => [i.title, i.object_type, i.object_id, i.priority, i.status, i.description]),
    ).toEqual([
      ['Imp mirror cracked', 'u', truck.id, 3, 'open', 'Left mirror'],
      ['Imp door seal', 't', trailer.id, 1, 'resolved', ''],
      ['Imp rattle', 'u', truck.id, 2, 'closed', ''],
    ]);
    // Reported at noon of the day in the fleet's zone (UTC+3 in the demo).
    expect(Number(stored[0]!.reported_at)).toBe(Date.parse('2026-01-02T09:00:00Z') / 1000);
    expect(stored[2]!.note).toBe('Imported');
    const read = await manager.get(`/api/fleets/${fid}/issues/${stored[0]!.id}`);
    expect(read.body).toMatchObject({ title: 'Imp mirror cracked', priority: 'high', status: 'open' });
  });

  it('answers 400 naming the rows, with nothing written; the viewer may not import', async () => {
    const res = await post(manager, [
      { object: truck.nm, title: 'Bad one', priority: 'urgent' },
      { object: 'No such truck', title: 'Bad two' },
      { object: truck.nm, title: 'Bad three', status: 'workorder' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { row: 0, field: 'body.rows.0.priority', message: 'issues.importPriority' },
      { row: 1, field: 'body.rows.1.object', message: 'issues.importObject' },
      { row: 2, field: 'body.rows.2.status', message: 'issues.importStatus' },
    ]);
    expect(await issuesTitled('Bad ')).toEqual([]);
    expect((await post(viewer, [{ object: truck.nm, title: 'Viewer' }])).status).toBe(403);
  });
});
