import {
  checkImportRows,
  type ImportProgressEvent,
  type LiveEvent,
  localDate,
  UserEventType,
} from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_YIELD_EVERY } from '../../db/yield.js';
import { EventsClient } from '../../test/events-client.js';
import { accountOf, type Client, createUnit, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * An import's progress reaches the importing user's sockets as user events of type 128
 * (core events.ts), rows checked then records written, in order, ending at N; and the spec §7 interval
 * route holds its rows to the preview's rules (core `intervalImportIssues`).
 */
describe('import progress and the interval route’s rules', () => {
  let t: TestServer;
  let manager: Client;
  let mechanic: Client;
  let fid: number;
  let base: string;
  let unitA: number;
  let foreign: number;

  beforeAll(async () => {
    t = await startTestServer();
    [manager, mechanic] = await Promise.all([t.login('manager'), t.login('mechanic')]);
    fid = t.demo.fleetId;
    base = `/api/fleets/${fid}/import`;
    unitA = await createUnit(t, {
      accountId: await accountOf(t, 'manager'),
      fleetId: fid,
      name: 'Progress A',
    });
    foreign = await createUnit(t, {
      accountId: await accountOf(t, 'outsider'),
      fleetId: t.demo.otherFleetId,
      name: 'Progress Foreign',
    });
  });
  afterAll(() => t.close());

  const progressOf = (events: LiveEvent[], id: string) =>
    events
      .filter((e) => e.s === 'user' && (e.d as ImportProgressEvent).type === UserEventType.importProgress)
      .map((e) => e.d as ImportProgressEvent)
      .filter((d) => d.id === id);
  const lastOf = (client: EventsClient, id: string, phase: 'check' | 'write', n: number) =>
    client.next((e) => {
      const d = e.d as Partial<ImportProgressEvent>;
      return e.s === 'user' && d.id === id && d.phase === phase && d.done === n;
    });
  /** Each phase's counts never go back; every check report precedes every write report. */
  const expectOrdered = (seen: ImportProgressEvent[]) => {
    const phases = seen.map((d) => d.phase);
    if (phases.includes('write')) expect(phases.lastIndexOf('check')).toBeLessThan(phases.indexOf('write'));
    for (const phase of ['check', 'write'] as const) {
      const counts = seen.filter((d) => d.phase === phase).map((d) => d.done);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
    }
  };

  it('reports rows checked and records written, in order, ending at N, to the importing user only', async () => {
    const mine = await EventsClient.connect(t.url, manager.ssid);
    const other = await EventsClient.connect(t.url, mechanic.ssid);
    const rows = Array.from({ length: 1234 }, (_, i) => ({ unit: 'Progress A', name: `Prog ${i}` }));
    const id = 'services-run-0001';
    const r = await manager.post(`${base}/services`, { date_format: 'YYYY-MM-DD', rows, progress: id });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    await lastOf(mine, id, 'write', 1234);
    const seen = progressOf(mine.received, id);
    expect(seen.every((d) => d.fid === fid)).toBe(true);
    expectOrdered(seen);
    const checks = seen.filter((d) => d.phase === 'check');
    const writes = seen.filter((d) => d.phase === 'write');
    expect(checks.map((d) => d.done)).toEqual([0, 500, 1000, 1234]);
    expect(checks.every((d) => d.total === 1234)).toBe(true);
    // The writer's turns (every BATCH_YIELD_EVERY records) show between the start and the end.
    const turns = Array.from(
      { length: Math.floor(1233 / BATCH_YIELD_EVERY) },
      (_, i) => (i + 1) * BATCH_YIELD_EVERY,
    );
    expect(writes.map((d) => d.done)).toEqual([0, ...turns, 1234]);
    expect(writes.every((d) => d.total === 1234)).toBe(true);
    // Another user of the fleet hears nothing of it.
    await other.next((e) => e.s === 'service' && e.fid === fid);
    expect(progressOf(other.received, id)).toEqual([]);
    mine.close();
    other.close();
  }, 60_000);

  it('a refused import reports its checks to N and no write; without an id nothing is sent', async () => {
    const mine = await EventsClient.connect(t.url, manager.ssid);
    const rows = Array.from({ length: 600 }, (_, i) => ({
      unit: i === 599 ? 'Nope' : 'Progress A',
      name: `Bad ${i}`,
    }));
    const r = await manager.post(`${base}/services`, {
      date_format: 'YYYY-MM-DD',
      rows,
      progress: 'refused-run-1',
    });
    expect(r.status).toBe(400);
    await lastOf(mine, 'refused-run-1', 'check', 600);
    const seen = progressOf(mine.received, 'refused-run-1');
    expect(seen.map((d) => `${d.phase}:${d.done}`)).toEqual(['check:0', 'check:500', 'check:600']);
    const quiet = await manager.post(`${base}/services`, {
      date_format: 'YYYY-MM-DD',
      rows: rows.slice(0, 2),
    });
    expect(quiet.status).toBe(200);
    expect(mine.received.filter((e) => (e.d as ImportProgressEvent).type === 128)).toHaveLength(3);
    expect(
      (await manager.post(`${base}/services`, { date_format: 'YYYY-MM-DD', rows, progress: 'x y' })).status,
    ).toBe(400);
    mine.close();
  }, 60_000);

  it('line items report each written chunk', async () => {
    const mine = await EventsClient.connect(t.url, manager.ssid);
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      name: `Prog item ${i}`,
      type: 'part',
      cost: '1',
    }));
    const r = await manager.post(`${base}/lineitems`, {
      date_format: 'YYYY-MM-DD',
      rows,
      progress: 'items-run-01',
    });
    expect(r.status).toBe(200);
    await lastOf(mine, 'items-run-01', 'write', 2500);
    const writes = progressOf(mine.received, 'items-run-01').filter((d) => d.phase === 'write');
    expect(writes.map((d) => d.done)).toEqual([0, 1000, 2000, 2500]);
    mine.close();
  }, 60_000);

  it('POST /fleets/{id}/import {intervals} refuses what the preview flags, with the same reason', async () => {
    const today = localDate(0, Math.floor(Date.now() / 1000));
    const tomorrow = localDate(0, Math.floor(Date.now() / 1000) + 2 * 86_400);
    await manager.post(base, { intervals: [{ n: 'Prog existing', de: 1, dd: 3, du: 'm' }] });
    // The preview's findings on text rows…
    const preview = checkImportRows(
      'intervals',
      [
        { name: 'Prog existing', time_frequency: '3' },
        { name: 'Prog future', unit: 'Progress A', time_frequency: '3', last_date: tomorrow },
        { name: 'Prog none', unit: 'Progress A' },
        { name: 'Prog foreign', unit: 'Progress Foreign', time_frequency: '3' },
      ],
      {
        dateFormat: 'YYYY-MM-DD',
        today,
        units: [{ id: unitA, n: 'Progress A' }],
        fleetId: fid,
        intervalNames: ['Prog existing'],
      },
    );
    // …and the same rows as the spec §7 route takes them.
    const typed = [
      { n: 'Prog existing', de: 1, dd: 3 },
      { n: 'Prog future', de: 1, dd: 3, u: [{ id: unitA, ltm: tomorrow }] },
      { n: 'Prog none', u: [{ id: unitA }] },
      { n: 'Prog foreign', de: 1, dd: 3, u: [{ id: foreign }] },
      { n: 'Prog month', de: 1, dd: 3, u: [{ id: unitA, ltm: '2024-13-01' }] },
    ];
    const r = await manager.post(base, { intervals: typed });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { row: 0, field: 'body.intervals.0.n', message: 'imports.err.duplicate' },
      { row: 1, field: 'body.intervals.1.u.0.ltm', message: 'imports.err.future' },
      { row: 2, field: 'body.intervals.2.cnmd', message: 'imports.err.noFrequency' },
      { row: 3, field: 'body.intervals.3.u.0.id', message: 'imports.err.unit' },
      { row: 4, field: 'body.intervals.4.u.0.ltm', message: 'imports.err.month' },
    ]);
    expect(preview.issues.map((i) => `${i.row}:${i.key}`)).toEqual(
      r.body.details.slice(0, 4).map((d: { row: number; message: string }) => `${d.row}:${d.message}`),
    );
    const stored = await t.server.ctx.db.kysely
      .selectFrom('intervals')
      .select('name')
      .where('fleet_id', '=', fid)
      .where('name', 'like', 'Prog %')
      .execute();
    expect(stored.map((s) => s.name)).toEqual(['Prog existing']);
    const fine = await manager.post(base, {
      intervals: [{ n: 'Prog fine', de: 1, dd: 3, u: [{ id: unitA, ltm: today }] }],
    });
    expect(fine.status).toBe(200);
  });
});
