import net from 'node:net';
import type { AppContext } from '../../context.js';
import { now } from '../../context.js';
import { ingestPacket } from '../ingest.js';
import { WarnLimiter } from '../warn-limit.js';
import { type AvlRecord, encodeAck, type Frame, FrameSplitter } from './codec.js';
import { preparePacket } from './packet.js';
import { type IoMapping, ioMappingOf } from './unit-type.js';

/**
 * The Teltonika port of DESIGN §3 (`TELTONIKA_PORT`): trackers connect over TCP, say their IMEI, and
 * send AVL packets (Codec 8 or 8 Extended). Each connection is served alone: the handshake is accepted
 * (0x01) when a unit's device identifier is the IMEI, else refused (0x00) and closed. A packet's records
 * are stored in one transaction (with other connections' packets of the moment: ingest.ts group
 * commit), in time order, and acknowledged with their count only after the commit: a record the tracker
 * sees acknowledged is durable, one it does not is sent again (and taken once, packet.ts). A packet whose CRC is wrong is not acknowledged and nothing of it is applied. Every
 * instance serves the connections it accepted; the database orders the writes of a unit (store.ts).
 */

/** A silent connection is closed after this long (trackers reconnect when they have data). */
export const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
/** Connections waiting to be accepted, as on the OsmAnd port. */
const TRACKER_BACKLOG = 4096;
/** A tracker waits for each acknowledgement; more packets than this queued is no tracker. */
const MAX_QUEUED_PACKETS = 16;

export interface TeltonikaServer {
  port: number;
  /** Stops accepting, closes every connection and waits for packets being stored. */
  close(): Promise<void>;
  /** Resolves once no connection is open and every packet received is handled (for tests). */
  idle(): Promise<void>;
}

/** Warnings per IMEI (or peer address before a handshake): a tracker retrying cannot flood the log. */
const warnings = new WarnLimiter();

interface Unit {
  id: number;
  deviceId: string;
  mapping: IoMapping;
}

/** The unit whose device identifier is the IMEI, as the readings find it (store.ts). */
async function unitOf(ctx: AppContext, imei: string): Promise<Unit | undefined> {
  const row = await ctx.db.kysely
    .selectFrom('units')
    .leftJoin('unit_types', 'unit_types.id', 'units.unit_type_id')
    .select(['units.id', 'units.device_id', 'unit_types.teltonika_io'])
    .where('units.device_id', '=', imei)
    .executeTakeFirst();
  return row && { id: row.id, deviceId: row.device_id, mapping: ioMappingOf(row.teltonika_io) };
}

class Connection {
  private readonly splitter = new FrameSplitter();
  private unit: Unit | undefined;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  /** Set when this side ends the connection: frames still queued are not handled. */
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    readonly socket: net.Socket,
    idleMs: number,
    /** Test only (config.ts `testAckDelayMs`): a wait between the commit and the acknowledgement. */
    private readonly ackDelayMs = 0,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(idleMs, () => this.close('idle'));
    socket.on('data', (chunk) => this.receive(chunk));
    // A tracker that hangs up after sending still has its packets stored (not acknowledged: it sends
    // them again, and they are taken once).
    socket.on('error', (err) => ctx.log.debug({ err }, 'teltonika connection error'));
  }

  /** Everything this connection is still doing (the packets queued or being stored). */
  get work(): Promise<void> {
    return this.queue;
  }

  /** A warning for the operator, at most one a minute per device (telematics/warn-limit.ts). */
  private warn(message: string, detail: Record<string, unknown> = {}, device = this.unit?.deviceId): void {
    const key = device ?? `${this.socket.remoteAddress}`;
    const skipped = warnings.take(key);
    if (skipped !== null) this.ctx.log.warn({ device: key, skipped, ...detail }, message);
  }

  close(why: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.ctx.log.debug({ why, device: this.unit?.deviceId }, 'teltonika connection closed');
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    for (const frame of this.splitter.push(chunk)) {
      if (++this.queued > MAX_QUEUED_PACKETS) {
        this.close('flood');
        return;
      }
      this.queue = this.queue
        .then(() => (this.stopped ? undefined : this.handle(frame)))
        .catch((err) => {
          this.ctx.log.error({ err, device: this.unit?.deviceId }, 'teltonika packet not stored');
          this.close('store failed');
        })
        .finally(() => {
          this.queued--;
        });
    }
  }

  private async handle(frame: Frame): Promise<void> {
    switch (frame.kind) {
      case 'imei': {
        this.unit = await unitOf(this.ctx, frame.imei);
        if (!this.unit) {
          this.warn('teltonika handshake refused: unknown device', {}, frame.imei);
          this.socket.end(Buffer.from([0x00]));
          this.stopped = true;
          return;
        }
        this.socket.write(Buffer.from([0x01]));
        return;
      }
      case 'avl':
        return this.store(frame.records);
      case 'bad-crc':
        this.warn('teltonika packet with a wrong CRC: not acknowledged');
        return;
      case 'ignored':
        this.ctx.log.debug({ codec: frame.codec }, 'teltonika packet of another codec ignored');
        return;
      case 'malformed':
        this.warn('teltonika stream not understood', { reason: frame.reason });
        return this.close('malformed');
    }
  }

  /** Stores a packet's records together and acknowledges them after the commit. */
  private async store(records: AvlRecord[]): Promise<void> {
    const unit = this.unit;
    if (!unit) return this.close('no handshake');
    const { readings } = await preparePacket(this.ctx, unit.id, unit.deviceId, records, unit.mapping);
    // With other connections' packets of the moment in one transaction (ingest.ts group commit).
    const outcomes = await ingestPacket(
      this.ctx,
      readings.map((r) => ({ ...r, source: 'teltonika' as const })),
      now(),
    );
    // A unit renamed away since the handshake, or of a suspended account: nothing is acknowledged, the
    // tracker keeps its records and sends them again later.
    const refused = outcomes.find((o) => o.status === 'unknown' || o.status === 'suspended');
    if (refused) return this.close(refused.reason);
    // Every record is decided and durable: stored, refused into the meter history, or taken before.
    if (this.ackDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.ackDelayMs));
    if (this.socket.writable) this.socket.write(encodeAck(records.length));
  }
}

/** Starts the Teltonika TCP server; port 0 picks a free port (the real one is returned). */
export async function startTeltonikaServer(
  ctx: AppContext,
  port: number,
  host: string,
  options: { idleMs?: number; ackDelayMs?: number } = {},
): Promise<TeltonikaServer> {
  const connections = new Set<Connection>();
  let idleWaiters: (() => void)[] = [];
  const forget = (connection: Connection) => {
    connections.delete(connection);
    if (connections.size > 0) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  };
  const server = net.createServer((socket) => {
    const connection = new Connection(ctx, socket, options.idleMs ?? IDLE_TIMEOUT_MS, options.ackDelayMs);
    connections.add(connection);
    // A closed connection is forgotten once the packets it delivered are handled.
    socket.on('close', () => void connection.work.then(() => forget(connection)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: TRACKER_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => ctx.log.error({ err }, 'teltonika server error'));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      const work = [...connections].map((c) => c.work);
      for (const c of connections) c.close('shutdown');
      await Promise.all([closing, ...work]);
    },
    idle() {
      return connections.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
