import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetAccountTree } from '../../auth/access.js';
import { now } from '../../context.js';
import type { Server } from '../../server.js';
import {
  createAccount,
  createFleet,
  createUnit,
  listenAnother,
  startTestServer,
  TEST_DB,
  type TestServer,
} from '../../test/harness.js';
import { CODEC_8, CODEC_8E, crc16Ibm, encodeAvlPacket, encodeImei, type RecordInput } from './codec.js';
import { startTeltonikaServer, type TeltonikaServer } from './server.js';

/** A tracker's end of a TCP connection: what it sends, and the bytes the server answers. */
class Tracker {
  private received = Buffer.alloc(0);
  private wanted: { n: number; resolve(b: Buffer): void; reject(e: Error): void } | undefined;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.deliver();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.wanted?.reject(new Error(`connection closed with ${this.received.length} bytes unread`));
        resolve();
      }),
    );
    socket.on('error', () => {});
  }

  static connect(port: number): Promise<Tracker> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1' }, () => resolve(new Tracker(socket)));
      socket.once('error', reject);
    });
  }

  private deliver() {
    if (!this.wanted || this.received.length < this.wanted.n) return;
    const { n, resolve } = this.wanted;
    this.wanted = undefined;
    resolve(this.received.subarray(0, n));
    this.received = this.received.subarray(n);
  }

  /** The next `n` bytes from the server. */
  read(n: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.wanted = { n, resolve, reject };
      this.deliver();
    });
  }

  /** Bytes received and not read. */
  get unread(): number {
    return this.received.length;
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Sends the handshake and returns the server's answer byte. */
  async hello(imei: string): Promise<number> {
    this.send(encodeImei(imei));
    return (await this.read(1))[0]!;
  }

  /** Sends a packet and returns the acknowledged count. */
  async packet(bytes: Buffer): Promise<number> {
    this.send(bytes);
    return (await this.read(4)).readUInt32BE(0);
  }

  /** Closes the connection after what was sent. */
  hangUp(): void {
    this.socket.end();
  }
}

describe('Teltonika TCP port (DESIGN §3)', () => {
  let t: TestServer;
  let tel: TeltonikaServer;
  let accountId: number;
  let imeis = 0;

  const db = () => t.server.ctx.db.kysely;
  /** A unit of the demo fleet whose device identifier is a fresh IMEI (counters 1000 km, 100 h). */
  const newUnit = async (unitTypeId: number | null = null) => {
    const n = ++imeis;
    const id = await createUnit(t, { accountId, fleetId: t.demo.fleetId, name: `teltonika ${n}` });
    const imei = `35630704${String(1_000_000 + n * 7919).slice(-7)}`;
    await db()
      .updateTable('units')
      .set({ device_id: imei, unit_type_id: unitTypeId })
      .where('id', '=', id)
      .execute();
    return { id, imei };
  };
  const unitRow = (id: number) =>
    db().selectFrom('units').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const positionsOf = async (id: number) =>
    (await db().selectFrom('positions').select('tm').where('unit_id', '=', id).orderBy('tm').execute()).map(
      (p) => Number(p.tm),
    );
  const refusalsOf = async (id: number) =>
    db()
      .selectFrom('meter_readings')
      .selectAll()
      .where('unit_id', '=', id)
      .where('status', '=', 'refused')
      .execute();

  /** Three records 10 minutes apart, an hour ago: odometer (IO 16, m) and ignition (IO 239). */
  const trip = (t0 = now() - 3600): RecordInput[] => [
    {
      timeMs: t0 * 1000,
      lat: 53.9,
      lon: 27.55,
      io: [
        { id: 16, value: 100_000 },
        { id: 239, value: 1 },
      ],
    },
    {
      timeMs: (t0 + 600) * 1000,
      lat: 53.91,
      lon: 27.56,
      io: [
        { id: 16, value: 112_345 },
        { id: 239, value: 1 },
      ],
    },
    {
      timeMs: (t0 + 1200) * 1000,
      lat: 53.92,
      lon: 27.57,
      io: [
        { id: 16, value: 120_000 },
        { id: 239, value: 0 },
      ],
    },
  ];

  beforeAll(async () => {
    t = await startTestServer();
    tel = await startTeltonikaServer(t.server.ctx, 0, '127.0.0.1');
    const fleet = await db()
      .selectFrom('fleets')
      .select('account_id')
      .where('id', '=', t.demo.fleetId)
      .executeTakeFirstOrThrow();
    accountId = fleet.account_id;
  });
  afterAll(async () => {
    await tel?.close();
    await t?.close();
  });

  it('accepts the handshake of a known IMEI with 0x01', async () => {
    expect(tel.port).toBeGreaterThan(0);
    const { imei } = await newUnit();
    const tracker = await Tracker.connect(tel.port);
    expect(await tracker.hello(imei)).toBe(0x01);
    tracker.hangUp();
  });

  it('refuses an unknown IMEI with 0x00 and closes the connection', async () => {
    const tracker = await Tracker.connect(tel.port);
    expect(await tracker.hello('359999999999999')).toBe(0x00);
    await tracker.closed;
  });

  it('applies a packet in time order and acknowledges it after the commit, counters moved', async () => {
    const unit = await newUnit();
    const tracker = await Tracker.connect(tel.port);
    await tracker.hello(unit.imei);
    const records = trip();
    // Sent newest first: applied oldest first all the same.
    expect(await tracker.packet(encodeAvlPacket(CODEC_8, [...records].reverse()))).toBe(3);
    // The acknowledgement came after the commit: everything is readable now.
    const row = await unitRow(unit.id);
    // IO 16 of the device's first record sets the counter (a baseline); the others move it.
    expect(row.mileage).toBeCloseTo(120, 6);
    expect(row.mileage - row.base_mileage).toBeCloseTo(20, 6);
    // Ignition on at the first two records: ten minutes of engine time.
    expect(row.engine_hours).toBeCloseTo(100 + 600 / 3600, 6);
    expect(row).toMatchObject({ lat: 53.92, lon: 27.57, ignition: 0, last_ms: records[2]!.timeMs });
    expect(await positionsOf(unit.id)).toEqual(records.map((r) => r.timeMs / 1000));
    expect(await refusalsOf(unit.id)).toEqual([]);
    // The meter history names the entry point (docs/product.md "Meter integrity").
    const sources = await db()
      .selectFrom('meter_readings')
      .select('source')
      .where('unit_id', '=', unit.id)
      .execute();
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources.map((r) => r.source))).toEqual(new Set(['teltonika']));
    tracker.hangUp();
  });

  it('keeps the fault codes of IO 281 per unit: first and last seen, count', async () => {
    const unit = await newUnit();
    const tracker = await Tracker.connect(tel.port);
    await tracker.hello(unit.imei);
    const t0 = now() - 1800;
    const withCodes = (at: number, codes: string): RecordInput => ({
      timeMs: at * 1000,
      lat: 53.9,
      lon: 27.55,
      io: [
        { id: 16, value: 200_000 },
        { id: 281, value: Buffer.from(codes) },
      ],
    });
    expect(
      await tracker.packet(
        encodeAvlPacket(CODEC_8E, [withCodes(t0, 'P0300,P0171'), withCodes(t0 + 60, 'P0300')]),
      ),
    ).toBe(2);
    const rows = await db()
      .selectFrom('fault_codes')
      .select(['code', 'count', 'first_seen', 'last_seen'])
      .where('unit_id', '=', unit.id)
      .orderBy('code')
      .execute();
    expect(rows.map((r) => [r.code, Number(r.count), Number(r.first_seen), Number(r.last_seen)])).toEqual([
      ['P0171', 1, t0, t0],
      ['P0300', 2, t0, t0 + 60],
    ]);
    tracker.hangUp();
  });

  it('does not acknowledge a packet with a wrong CRC and applies nothing of it', async () => {
    const unit = await newUnit();
    const tracker = await Tracker.connect(tel.port);
    await tracker.hello(unit.imei);
    const [first, second, third] = trip();
    const bad = encodeAvlPacket(CODEC_8E, [first!, second!]);
    bad.writeUInt8(bad.readUInt8(bad.length - 1) ^ 0x5a, bad.length - 1);
    tracker.send(bad);
    // Packets are answered in order: had the bad one been acknowledged, its count (2) would come first.
    expect(await tracker.packet(encodeAvlPacket(CODEC_8E, [third!]))).toBe(1);
    expect(tracker.unread).toBe(0);
    expect(await positionsOf(unit.id)).toEqual([third!.timeMs / 1000]);
    tracker.hangUp();
  });

  it('takes a resent packet once when the acknowledgement was lost', async () => {
    const unit = await newUnit();
    const records = trip();
    const packet = encodeAvlPacket(CODEC_8E, records);
    const tracker = await Tracker.connect(tel.port);
    await tracker.hello(unit.imei);
    expect(await tracker.packet(packet)).toBe(3);
    const once = await unitRow(unit.id);
    // The tracker did not see it (lost on the way): it sends the same records again.
    expect(await tracker.packet(packet)).toBe(3);
    const twice = await unitRow(unit.id);
    expect(twice).toMatchObject({
      mileage: once.mileage,
      engine_hours: once.engine_hours,
      last_ms: once.last_ms,
    });
    expect(await positionsOf(unit.id)).toEqual(records.map((r) => r.timeMs / 1000));
    expect(await refusalsOf(unit.id)).toEqual([]);
    tracker.hangUp();
  });

  it('takes the records of a tracker that hung up before the acknowledgement once, when resent', async () => {
    const unit = await newUnit();
    const records = trip();
    const packet = encodeAvlPacket(CODEC_8, records);
    const first = await Tracker.connect(tel.port);
    await first.hello(unit.imei);
    first.send(packet);
    first.hangUp();
    // The server handles what it received before the hang-up (the test waits for that to be done).
    await tel.idle();
    const second = await Tracker.connect(tel.port);
    await second.hello(unit.imei);
    expect(await second.packet(packet)).toBe(3);
    const row = await unitRow(unit.id);
    expect(row.mileage).toBeCloseTo(120, 6);
    expect(row.engine_hours).toBeCloseTo(100 + 600 / 3600, 6);
    expect(await positionsOf(unit.id)).toEqual(records.map((r) => r.timeMs / 1000));
    expect(await refusalsOf(unit.id)).toEqual([]);
    second.hangUp();
  });

  it('does not acknowledge a packet whose commit fails, closes, and takes the resend once', async () => {
    const unit = await newUnit();
    const records = trip();
    const packet = encodeAvlPacket(CODEC_8E, records);
    // A commit that fails between receipt and acknowledgement, as a crash of the database would.
    if (TEST_DB === 'postgres') {
      await sql`create function teltonika_fail() returns trigger language plpgsql as $$ begin raise exception 'simulated failure'; end $$`.execute(
        db(),
      );
      await sql`create trigger teltonika_fail before insert on positions for each row when (new.unit_id = ${sql.lit(unit.id)}) execute function teltonika_fail()`.execute(
        db(),
      );
    } else
      await sql`create trigger teltonika_fail before insert on positions when new.unit_id = ${sql.lit(unit.id)} begin select raise(abort, 'simulated failure'); end`.execute(
        db(),
      );
    const first = await Tracker.connect(tel.port);
    await first.hello(unit.imei);
    first.send(packet);
    await first.closed;
    expect(first.unread).toBe(0);
    expect(await positionsOf(unit.id)).toEqual([]);
    expect((await unitRow(unit.id)).last_ms).toBeNull();
    await sql`drop trigger teltonika_fail${sql.raw(TEST_DB === 'postgres' ? ' on positions' : '')}`.execute(
      db(),
    );

    const second = await Tracker.connect(tel.port);
    await second.hello(unit.imei);
    expect(await second.packet(packet)).toBe(3);
    expect(await second.packet(packet)).toBe(3);
    const row = await unitRow(unit.id);
    expect(row.mileage).toBeCloseTo(120, 6);
    expect(row.engine_hours).toBeCloseTo(100 + 600 / 3600, 6);
    expect(await positionsOf(unit.id)).toEqual(records.map((r) => r.timeMs / 1000));
    second.hangUp();
  });

  it('reads a unit type’s mapped IO ids for mileage and engine hours, set by a super user', async () => {
    const root = await t.login('root');
    const types = await root.get('/api/admin/unit_types');
    expect(types.status).toBe(200);
    const type = types.body.unit_types[0];
    expect(type).toMatchObject({
      id: expect.any(Number),
      n: expect.any(String),
      tio: { mileage: null, hours: null },
    });
    const url = `/api/admin/unit_types/${type.id}/teltonika`;
    const mapping = { mileage: { id: 87, unit: 'm' }, hours: { id: 103, unit: 's' } };
    // GET → PUT round trip: the edited value comes back, and again from the list.
    const put = await root.put(url, { ...type.tio, ...mapping });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...type, tio: mapping });
    expect((await root.get('/api/admin/unit_types')).body.unit_types[0]).toEqual(put.body);
    const bad = await root.put(url, { mileage: { id: 70_000, unit: 'mi' }, hours: null });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'body.mileage.id',
      'body.mileage.unit',
    ]);
    expect((await root.put('/api/admin/unit_types/999999/teltonika', mapping)).status).toBe(404);
    expect((await (await t.login('admin')).put(url, mapping)).status).toBe(403);
    try {
      const unit = await newUnit(type.id);
      const tracker = await Tracker.connect(tel.port);
      await tracker.hello(unit.imei);
      const t0 = now() - 1800;
      const packet = encodeAvlPacket(CODEC_8E, [
        {
          timeMs: t0 * 1000,
          lat: 54.7,
          lon: 25.3,
          io: [
            { id: 87, value: 500_000 },
            { id: 103, value: 360_000 },
          ],
        },
        {
          timeMs: (t0 + 900) * 1000,
          lat: 54.71,
          lon: 25.31,
          io: [
            { id: 87, value: 512_500 },
            { id: 103, value: 361_800 },
            { id: 16, value: 9_999_999 },
            { id: 281, value: Buffer.from('P0300,P0171') },
            { id: 66, value: 12_800 },
          ],
        },
      ]);
      expect(await tracker.packet(packet)).toBe(2);
      const row = await unitRow(unit.id);
      // 512.5 km from IO 87 (not IO 16's 9,999 km); 100.5 h from IO 103's seconds.
      expect(row.mileage).toBeCloseTo(512.5, 6);
      expect(row.engine_hours).toBeCloseTo(100.5, 6);
      expect(JSON.parse(row.params)).toMatchObject({ sat: 8, io66: 12_800 });
      tracker.hangUp();
    } finally {
      const cleared = await root.put(url, { mileage: null, hours: null });
      expect(cleared.body.tio).toEqual({ mileage: null, hours: null });
    }
  });

  it('does not acknowledge the records of a suspended account’s unit: the tracker keeps them', async () => {
    const account = await createAccount(t, 'Teltonika suspended', accountId);
    const fleetId = await createFleet(t, account, 'Teltonika suspended fleet');
    const id = await createUnit(t, { accountId: account, fleetId, name: 'suspended tracker' });
    const imei = '356307049999991';
    await db().updateTable('units').set({ device_id: imei }).where('id', '=', id).execute();
    await db().updateTable('accounts').set({ active: 0 }).where('id', '=', account).execute();
    forgetAccountTree(t.server.ctx);
    const tracker = await Tracker.connect(tel.port);
    expect(await tracker.hello(imei)).toBe(0x01);
    tracker.send(encodeAvlPacket(CODEC_8E, trip()));
    await tracker.closed;
    expect(tracker.unread).toBe(0);
    expect(await positionsOf(id)).toEqual([]);
  });

  it('ignores packets of other codecs and closes a stream that is not the protocol', async () => {
    const unit = await newUnit();
    const tracker = await Tracker.connect(tel.port);
    await tracker.hello(unit.imei);
    const command = encodeAvlPacket(CODEC_8, trip());
    command.writeUInt8(0x0c, 8); // the codec id of a Codec 12 reply; the CRC made right again below
    command.writeUInt32BE(crc16Ibm(command.subarray(8, -4)), command.length - 4);
    tracker.send(command);
    expect(await tracker.packet(encodeAvlPacket(CODEC_8, trip().slice(0, 1)))).toBe(1);
    tracker.send(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    await tracker.closed;
    expect(await positionsOf(unit.id)).toHaveLength(1);
  });

  it('closes an idle connection, and every connection when the server closes', async () => {
    const unit = await newUnit();
    const quick = await startTeltonikaServer(t.server.ctx, 0, '127.0.0.1', { idleMs: 50 });
    const idle = await Tracker.connect(quick.port);
    await idle.closed; // silent: closed by the server
    await quick.close();
    const shutdown = await startTeltonikaServer(t.server.ctx, 0, '127.0.0.1');
    const held = await Tracker.connect(shutdown.port);
    expect(await held.hello(unit.imei)).toBe(1);
    await shutdown.close();
    await held.closed;
  });

  it('serves many trackers at once', async () => {
    const units = await Promise.all(Array.from({ length: 12 }, () => newUnit()));
    const acks = await Promise.all(
      units.map(async (unit) => {
        const tracker = await Tracker.connect(tel.port);
        await tracker.hello(unit.imei);
        const ack = await tracker.packet(encodeAvlPacket(CODEC_8E, trip()));
        tracker.hangUp();
        return ack;
      }),
    );
    expect(acks).toEqual(units.map(() => 3));
    for (const unit of units) expect((await unitRow(unit.id)).mileage).toBeCloseTo(120, 6);
  });

  /** SQLite serves one instance by design (DESIGN §6): several instances are a PostgreSQL matter. */
  if (TEST_DB === 'postgres')
    it('serves trackers on several instances, each its own connections', async () => {
      const other: { server: Server } = await listenAnother({ ...t.config });
      const otherTel = await startTeltonikaServer(other.server.ctx, 0, '127.0.0.1');
      try {
        const [a, b] = [await newUnit(), await newUnit()];
        const records = trip();
        const one = await Tracker.connect(tel.port);
        const two = await Tracker.connect(otherTel.port);
        await Promise.all([one.hello(a.imei), two.hello(b.imei)]);
        const [ackA, ackB] = await Promise.all([
          one.packet(encodeAvlPacket(CODEC_8E, records)),
          two.packet(encodeAvlPacket(CODEC_8E, records)),
        ]);
        expect([ackA, ackB]).toEqual([3, 3]);
        // One unit's tracker moving to the other instance: its resend is taken once there too.
        two.hangUp();
        const moved = await Tracker.connect(otherTel.port);
        await moved.hello(a.imei);
        expect(await moved.packet(encodeAvlPacket(CODEC_8E, records.slice(0, 2)))).toBe(2);
        expect(await refusalsOf(a.id)).toEqual([]);
        one.hangUp();
        moved.hangUp();
      } finally {
        await otherTel.close();
        await other.server.close();
      }
    });
});
