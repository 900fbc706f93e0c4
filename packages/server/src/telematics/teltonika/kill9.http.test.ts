import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/built-server.js';
import { createPgDatabase, TEST_DB } from '../../test/harness.js';
import {
  assertBuilt,
  type Inspector,
  type Instance,
  inspect,
  startInstance,
  type Where,
} from '../../test/soak/instance.js';
import { CODEC_8E, encodeAvlPacket, encodeImei, type RecordInput } from './codec.js';

/**
 * kill -9 between a packet's commit and its acknowledgement (DESIGN §3: "a record the tracker sees
 * acknowledged is durable, one it does not is sent again, and taken once"). The built server runs as a
 * child process; `FLEETKEEP_TEST_ACK_DELAY_MS` (honoured only with NODE_ENV=test, config.ts) holds each
 * acknowledgement back after the commit, so the kill lands between the two every time: the test waits
 * until the packet's positions are visible in the database, sees no acknowledgement, and sends SIGKILL.
 * The server is started again on the same database and the tracker sends the same packet again, as a
 * tracker does without an acknowledgement: it is acknowledged, and nothing of it is taken twice.
 */

const IMEI = '356307049999991';
const HELD_BACK_MS = 600_000;
const WAIT_MS = 30_000;

/** A tracker's end of a connection: bytes sent, bytes received. */
class Tracker {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('close', () => {
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('error', () => {});
  }

  static connect(port: number): Promise<Tracker> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => resolve(new Tracker(socket)));
      socket.once('error', reject);
    });
  }

  get unread(): number {
    return this.received.length;
  }

  /** The next `n` bytes, or an error when the connection closes or `WAIT_MS` pass first. */
  async read(n: number): Promise<Buffer> {
    const deadline = Date.now() + WAIT_MS;
    while (this.received.length < n) {
      if (this.socket.destroyed) throw new Error(`closed with ${this.received.length} bytes`);
      if (Date.now() > deadline) throw new Error(`no ${n} bytes in ${WAIT_MS} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    const out = this.received.subarray(0, n);
    this.received = this.received.subarray(n);
    return out;
  }

  async hello(): Promise<number> {
    this.socket.write(encodeImei(IMEI));
    return (await this.read(1))[0]!;
  }
}

/** A row as the inspector reads it. */
type Row = Record<string, number | string | null>;

/** What the database holds of the unit: every row a packet's records may write, and its counters. */
async function holdings(db: Inspector, unitId: number) {
  return {
    positions: await db.all<Row>(
      'select tm, lat, lon, mileage from positions where unit_id = ? order by tm, lat',
      [unitId],
    ),
    meter: await db.all<Row>(
      'select id, status, tm_ms, mileage, shift_pending from meter_readings where unit_id = ? order by id',
      [unitId],
    ),
    days: await db.all<Row>(
      'select day, first_mileage, last_mileage from counter_days where unit_id = ? order by day',
      [unitId],
    ),
    unit: await db.all<Row>(
      'select mileage, engine_hours, last_ms, base_mileage, counter_off_mileage, meter_odo_device from units where id = ?',
      [unitId],
    ),
    assignments: await db.all<Row>('select id, lcnm, lceh from assignments where object_id = ? order by id', [
      unitId,
    ]),
    log: await db.all<Row>('select count(*) as n from ingest_log where unit_id = ?', [unitId]),
  };
}

describe(`Teltonika: kill -9 between commit and acknowledgement (${TEST_DB})`, () => {
  const where: Where = { dataDir: '' };
  let dropDb: (() => Promise<void>) | undefined;
  let current: Instance | undefined;
  let db: Inspector | undefined;

  beforeAll(async () => {
    assertBuilt();
    where.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-teltonika-kill9-'));
    if (TEST_DB === 'postgres') {
      const made = await createPgDatabase();
      where.databaseUrl = made.url;
      dropDb = made.drop;
    }
  });

  afterAll(async () => {
    await current?.kill();
    await db?.close();
    await dropDb?.();
    if (where.dataDir) fs.rmSync(where.dataDir, { recursive: true, force: true });
  });

  const start = async (ackDelayMs: number) => {
    const teltonikaPort = await freePort();
    current = await startInstance(where, {
      TELTONIKA_PORT: String(teltonikaPort),
      NODE_ENV: 'test',
      FLEETKEEP_TEST_ACK_DELAY_MS: String(ackDelayMs),
    });
    return teltonikaPort;
  };

  it('takes the resent packet once and acknowledges it', { timeout: 240_000 }, async () => {
    let port = await start(HELD_BACK_MS);
    db = await inspect(where);
    // A demo unit with interval assignments becomes the tracker: its first odometer is a new baseline,
    // which also moves the assignments' baselines once.
    const [unit] = await db.all<{ id: number; last_time: number | string | null }>(
      `select u.id, u.last_time from units u where u.fleet_id is not null and u.lat is not null
         and exists (select 1 from assignments a where a.object_type = 'u' and a.object_id = u.id)
         order by u.id limit 1`,
    );
    expect(unit).toBeDefined();
    // After the unit's last message, and in the past.
    const t0 = Math.max(Math.floor(Date.now() / 1000) - 300, Number(unit!.last_time ?? 0) + 60);
    const unitId = unit!.id;
    await db.exec('update units set device_id = ? where id = ?', [IMEI, unitId]);
    const before = await holdings(db, unitId);

    const io = (odometerM: number) => [
      { id: 16, value: odometerM },
      { id: 239, value: 1 },
    ];
    const records: RecordInput[] = [
      // No GPS fix: placed where the unit last was (a resend cannot know that place).
      { timeMs: (t0 - 30) * 1000, lat: 0, lon: 0, io: [{ id: 239, value: 1 }] },
      { timeMs: t0 * 1000, lat: 53.9, lon: 27.55, io: io(100_000) },
      { timeMs: (t0 + 30) * 1000, lat: 53.901, lon: 27.551, io: io(100_400) },
      // Two records of one moment (an event beside the periodic record): both are applied.
      { timeMs: (t0 + 60) * 1000 + 250, lat: 53.902, lon: 27.552, io: io(100_800) },
      { timeMs: (t0 + 60) * 1000 + 250, lat: 53.9021, lon: 27.5521, io: io(100_805) },
    ];
    const packet = encodeAvlPacket(CODEC_8E, records);

    const first = await Tracker.connect(port);
    expect(await first.hello()).toBe(1);
    first.socket.write(packet);
    // Committed: the packet's positions are visible; the acknowledgement is held back.
    const deadline = Date.now() + WAIT_MS;
    let stored = 0;
    while (stored < records.length && Date.now() < deadline) {
      const [row] = await db.all<{ n: number | string }>(
        'select count(*) as n from positions where unit_id = ?',
        [unitId],
      );
      stored = Number(row!.n) - before.positions.length;
      if (stored < records.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stored).toBe(records.length);
    expect(first.unread).toBe(0);
    await current!.kill();
    expect(first.unread).toBe(0); // no acknowledgement reached the tracker
    first.socket.destroy();

    // Started again on the same database (pending interval moves are applied at start).
    port = await start(0);
    const committed = await holdings(db, unitId);
    expect(committed.positions).toHaveLength(before.positions.length + records.length);
    expect(Number(committed.unit[0]!.mileage)).toBeCloseTo(100.805, 6);
    expect(committed.meter.filter((m) => m.status === 'refused')).toEqual([]);
    expect(committed.meter.filter((m) => m.status === 'baseline')).toHaveLength(1);
    expect(committed.meter.filter((m) => Number(m.shift_pending) !== 0)).toEqual([]);
    expect(committed.assignments).not.toEqual(before.assignments);

    // The tracker had no acknowledgement: it sends the same packet again.
    const again = await Tracker.connect(port);
    expect(await again.hello()).toBe(1);
    again.socket.write(packet);
    expect((await again.read(4)).readUInt32BE(0)).toBe(records.length);
    again.socket.destroy();

    // Taken once: no position, history row, counter, day or interval baseline moved by the resend.
    expect(await holdings(db, unitId)).toEqual(committed);
  });
});
