import { ServiceFlag } from '@fleetkeep/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../context.js';
import { recompute } from '../engine/index.js';
import { createServer } from '../server.js';
import { startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { servicesFixture } from '../test/services-fixtures.js';
import { applyPendingShifts } from './baseline-shift.js';

/**
 * The move of interval baselines with a device's new counter baseline is recorded in the
 * readings' transaction (the history row, `shift_pending`) and applied after the commit; a process killed
 * between the two leaves the row pending, and the next start applies it, once (baseline-shift.ts
 * `applyPendingShifts`, `recoverShifts`).
 */
describe('interval baseline moves recorded before a crash', () => {
  let t: TestServer;
  let fx: Awaited<ReturnType<typeof servicesFixture>>;

  const pending = (unitId: number) =>
    fx.db
      .selectFrom('meter_readings')
      .select(['id', 'shift_pending', 'shift_mileage'])
      .where('unit_id', '=', unitId)
      .where('status', '=', 'baseline')
      .orderBy('id')
      .execute();
  const openServices = (aid: number) =>
    fx.db
      .selectFrom('services')
      .select(['id', 'f', 'limit_mileage', 'last_mileage'])
      .where('assignment_id', '=', aid)
      .execute();
  /** A unit at 419,700 km whose 15,000 km interval (last done at 405,000) has a Due service. */
  const dueUnit = async () => {
    const uid = await fx.unit(419_700, 10);
    const { aid, ivid } = await fx.assignment(uid, {
      lcnm: 405_000,
      lceh: 0,
      ltm: now() - 30 * 86_400,
      cnt: 1,
    });
    await fx.db.updateTable('intervals').set({ cnmd: 15_000, cnmo: 500 }).where('id', '=', ivid).execute();
    await recompute(t.server.ctx, { objects: [{ type: 'u', id: uid }] });
    const [due] = await openServices(aid);
    expect(due).toMatchObject({ limit_mileage: 420_000, last_mileage: 405_000 });
    return { uid, aid, due: due! };
  };
  /**
   * What the readings' transaction of a device's first odometer (807,400 km) commits, the unit's counter
   * and the pending history row, without the step after the commit: the state a kill -9 between the two
   * leaves.
   */
  const crashAfterReadings = async (uid: number) => {
    const unit = await fx.unitRow(uid);
    await fx.db
      .updateTable('units')
      .set({ mileage: 807_400, base_mileage: unit.base_mileage + 387_700, meter_odo_device: unit.device_id })
      .where('id', '=', uid)
      .execute();
    await fx.db
      .insertInto('meter_readings')
      .values({
        fleet_id: fx.fleetId,
        unit_id: uid,
        tm_ms: now() * 1000,
        received_at: now(),
        source: 'device',
        status: 'baseline',
        mileage: 807_400,
        old_mileage: 419_700,
        device_id: unit.device_id,
        shift_mileage: 387_700,
        shift_pending: 1,
      })
      .execute();
  };
  /** Another instance starts on the same database (and stops again). */
  const restart = async () => {
    const other = await createServer(t.config, { logger: false });
    try {
      await other.app.ready();
    } finally {
      await other.close();
    }
  };

  beforeAll(async () => {
    t = await startTestServer();
    fx = await servicesFixture(t);
  });
  afterAll(() => t?.close());

  it('records the move on the history row and applies it right after the commit', async () => {
    const { uid, aid, due } = await dueUnit();
    const device = (await fx.unitRow(uid)).device_id;
    const res = await t.anon.get(
      `/api/ingest/osmand?id=${device}&timestamp=${now() - 60}&lat=53.9&lon=27.5&odometer=807400000`,
    );
    expect(res.body).toEqual({ ok: true });
    expect(await pending(uid)).toEqual([
      expect.objectContaining({ shift_pending: 0, shift_mileage: 387_700 }),
    ]);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(792_700);
    expect(await openServices(aid)).toEqual([
      expect.objectContaining({ id: due.id, limit_mileage: 807_700, last_mileage: 792_700 }),
    ]);
  });

  it('applies a recorded, unapplied move at the next start, and only once', async () => {
    const { uid, aid, due } = await dueUnit();
    await crashAfterReadings(uid);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(405_000);

    await restart();
    expect(await pending(uid)).toEqual([
      expect.objectContaining({ shift_pending: 0, shift_mileage: 387_700 }),
    ]);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(792_700);
    const [moved] = await openServices(aid);
    expect(moved).toMatchObject({ id: due.id, limit_mileage: 807_700, last_mileage: 792_700 });
    // The engine ran on the unit after the move: 300 km left, Due and not overdue.
    expect(moved!.f & ServiceFlag.overdue).toBe(0);

    // Another start, and another run of the step, move nothing again.
    await restart();
    expect(await applyPendingShifts(t.server.ctx, [uid])).toEqual([]);
    expect((await fx.assignmentRow(aid)).lcnm).toBe(792_700);
    expect((await openServices(aid))[0]).toMatchObject({ limit_mileage: 807_700, last_mileage: 792_700 });
  });

  it('applies a pending move once when two instances run the step at the same time', async () => {
    const { uid, aid } = await dueUnit();
    await crashAfterReadings(uid);
    // Several instances share PostgreSQL only; on SQLite the one instance's two runs overlap.
    const other = TEST_DB === 'postgres' ? await createServer(t.config, { logger: false }) : undefined;
    try {
      const runs = await Promise.all([
        applyPendingShifts(t.server.ctx, [uid]),
        applyPendingShifts(other?.ctx ?? t.server.ctx, [uid]),
      ]);
      expect(runs.flat()).toEqual([expect.objectContaining({ unitId: uid, mileage: 387_700 })]);
    } finally {
      await other?.close();
    }
    expect((await fx.assignmentRow(aid)).lcnm).toBe(792_700);
    expect((await openServices(aid))[0]).toMatchObject({ limit_mileage: 807_700, last_mileage: 792_700 });
  });
});
