// The simulated devices of `npm run simulate` (DESIGN §3 "Telematics ingestion"): Teltonika trackers over
// TCP (IMEI handshake, Codec 8E packets, resent until acknowledged), OsmAnd trackers over HTTP (one
// position per request, GET query or POST form), or, with `traccar`, a Traccar server forwarding
// `{position, device}` bodies. Each device drives a truck of motion.mjs. `runSimulation` is used by the
// command line (simulate.mjs), the benchmark (bench/teltonika.mjs) and the server's tests.
import { setMaxListeners } from 'node:events';
import net from 'node:net';
import { advance, createTruck, DEFAULT_CENTRE, seededRandom } from './motion.mjs';

/** Codec 8 Extended, as Teltonika's FMB trackers send it. */
const CODEC_8E = 0x8e;
/** Teltonika IO ids: total odometer (metres), ignition, external voltage (mV), GSM signal. */
const IO_ODOMETER = 16;
const IO_IGNITION = 239;
const IO_EXTERNAL_VOLTAGE = 66;
const IO_GSM_SIGNAL = 21;
/** A packet unacknowledged this long is sent again (on a new connection). */
const ACK_TIMEOUT_MS = 15_000;
/** Pause before reconnecting after a refused handshake or a lost connection. */
const RECONNECT_MS = 2000;
const KMH_PER_KNOT = 1.852;
/** Acknowledgement times kept for the percentiles (the most recent ones). */
const LATENCY_SAMPLES = 200_000;

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** `5` or `1..10` (also `1-10`): the range of records per packet. */
export function parseRange(text) {
  const m = /^\s*(\d+)\s*(?:(?:\.\.|-)\s*(\d+))?\s*$/.exec(String(text));
  if (!m) throw new Error(`not a number or a range: ${text}`);
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (min < 1 || max < min || max > 255) throw new Error(`records per packet must be within 1..255: ${text}`);
  return [min, max];
}

/** The device identifiers the simulation uses: Teltonika first, then OsmAnd. */
export function deviceIds({ prefix = 'sim', teltonika = 0, osmand = 0 }) {
  const pad = (n) => String(n + 1).padStart(4, '0');
  return {
    teltonika: Array.from({ length: teltonika }, (_, i) => `${prefix}-tel-${pad(i)}`),
    osmand: Array.from({ length: osmand }, (_, i) => `${prefix}-osm-${pad(i)}`),
  };
}

/** Counters of a simulation; `ackMs` holds the latest acknowledgement times. */
function newStats() {
  return {
    connected: 0,
    acked: 0,
    packets: 0,
    resent: 0,
    refused: 0,
    errors: 0,
    lastError: undefined,
    ackMs: [],
  };
}

function noteLatency(stats, ms) {
  if (stats.ackMs.length >= LATENCY_SAMPLES) stats.ackMs.splice(0, LATENCY_SAMPLES / 2);
  stats.ackMs.push(ms);
}

function noteError(stats, message) {
  stats.errors++;
  stats.lastError = message;
}

/**
 * A device's clock and truck. Records are `spacingMs` apart; a packet is sent only once its last record's
 * time has come (no record from the future), so with an interval the packets follow the wall clock and
 * without one a device that starts in the past sends as fast as it is acknowledged.
 */
class Device {
  constructor(id, index, options) {
    this.id = id;
    this.options = options;
    const random = seededRandom((options.seed ?? 1) * 7919 + index);
    this.random = random;
    const startMs = options.startMs ?? Date.now() - options.intervalMs;
    this.truck = createTruck({ random, timeMs: Math.floor(startMs / 1000) * 1000, centre: options.centre });
  }

  /** The next packet's reports (1 to `records` of them), waiting until the last one's time has come. */
  async nextReports(signal) {
    const [min, max] = this.options.records;
    const n = min + Math.floor(this.random() * (max - min + 1));
    const spacing = Math.max(1000, Math.round(this.options.intervalMs / n));
    const lastTime = this.truck.timeMs + n * spacing;
    if (lastTime > Date.now()) await sleep(lastTime - Date.now(), signal);
    if (signal.aborted) return [];
    return Array.from({ length: n }, () => advance(this.truck, spacing));
  }
}

/** A Teltonika record of a report: GPS element and the odometer, ignition, voltage and signal IO. */
function teltonikaRecord(r) {
  return {
    timeMs: r.timeMs,
    priority: 0,
    lat: r.lat,
    lon: r.lon,
    altitude: r.altitude,
    angle: r.course,
    satellites: 11,
    speed: Math.round(r.speed),
    eventId: 0,
    io: [
      { id: IO_IGNITION, value: r.ignition ? 1 : 0, size: 1 },
      { id: IO_GSM_SIGNAL, value: 4, size: 1 },
      { id: IO_EXTERNAL_VOLTAGE, value: r.ignition ? 27_600 : 25_100, size: 2 },
      { id: IO_ODOMETER, value: r.odometerM, size: 4 },
    ],
  };
}

/** A TCP connection of a tracker: reads exactly the bytes it waits for. */
class TrackerSocket {
  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.waiting = undefined;
    this.closed = false;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.deliver();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.reject(new Error('connection closed'));
      this.waiting = undefined;
    });
  }

  static connect(host, port) {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new TrackerSocket(socket));
      });
      socket.once('error', reject);
    });
  }

  deliver() {
    if (!this.waiting || this.buffer.length < this.waiting.n) return;
    const { n, resolve, timer } = this.waiting;
    clearTimeout(timer);
    this.waiting = undefined;
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    resolve(out);
  }

  /** The next `n` bytes, or an error after `timeoutMs` or when the connection closes. */
  read(n, timeoutMs) {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = { n, resolve, reject, timer };
      this.deliver();
    });
  }

  write(bytes) {
    this.socket.write(bytes);
  }

  destroy() {
    this.socket.destroy();
  }
}

/** One Teltonika tracker: handshake, then packets, each sent until it is acknowledged with its count. */
async function runTeltonika(device, options, stats, signal) {
  const { codec } = options;
  let pending; // the packet not yet acknowledged: sent again after a reconnect
  let connection;
  const disconnect = () => {
    if (!connection) return;
    connection.destroy();
    connection = undefined;
    stats.connected--;
  };
  signal.addEventListener('abort', disconnect, { once: true });
  while (!signal.aborted) {
    try {
      if (!connection) {
        const socket = await TrackerSocket.connect(options.host, options.teltonikaPort);
        if (signal.aborted) {
          socket.destroy();
          break;
        }
        connection = socket;
        stats.connected++;
        connection.write(codec.encodeImei(device.id));
        const [answer] = await connection.read(1, ACK_TIMEOUT_MS);
        if (answer !== 0x01) {
          stats.refused++;
          throw new Error(`handshake of ${device.id} refused (is there a unit with this device identifier?)`);
        }
      }
      if (!pending) {
        const reports = await device.nextReports(signal);
        if (signal.aborted) break;
        pending = {
          count: reports.length,
          packet: codec.encodeAvlPacket(CODEC_8E, reports.map(teltonikaRecord)),
        };
      } else stats.resent++;
      const sent = performance.now();
      connection.write(pending.packet);
      stats.packets++;
      const ack = await connection.read(4, ACK_TIMEOUT_MS);
      const count = ack.readUInt32BE(0);
      if (count !== pending.count)
        throw new Error(`${device.id}: ${count} of ${pending.count} records acknowledged`);
      noteLatency(stats, performance.now() - sent);
      stats.acked += pending.count;
      pending = undefined;
    } catch (err) {
      if (signal.aborted) break;
      noteError(stats, err instanceof Error ? err.message : String(err));
      disconnect();
      await sleep(RECONNECT_MS, signal);
    }
  }
  disconnect();
}

/** The OsmAnd fields of a report: speed in knots, odometer in metres, engine hours. */
function osmandFields(id, r) {
  return new URLSearchParams({
    id,
    timestamp: String(Math.floor(r.timeMs / 1000)),
    lat: String(r.lat),
    lon: String(r.lon),
    speed: (r.speed / KMH_PER_KNOT).toFixed(2),
    bearing: String(r.course),
    altitude: String(r.altitude),
    ignition: String(r.ignition),
    odometer: String(r.odometerM),
    hours: String(r.hours),
    batt: '100',
  });
}

/** A Traccar server's forward body (`forward.type=json`) of a report. */
function traccarBody(id, index, r) {
  const time = new Date(r.timeMs).toISOString();
  return {
    position: {
      deviceId: index + 1,
      protocol: 'osmand',
      deviceTime: time,
      fixTime: time,
      serverTime: new Date().toISOString(),
      valid: true,
      latitude: r.lat,
      longitude: r.lon,
      altitude: r.altitude,
      speed: Number((r.speed / KMH_PER_KNOT).toFixed(2)),
      course: r.course,
      attributes: {
        ignition: r.ignition,
        odometer: r.odometerM,
        hours: Math.round(r.hours * 3_600_000),
        motion: r.speed > 0,
      },
    },
    device: { id: index + 1, name: id, uniqueId: id, status: 'online' },
  };
}

/**
 * One device over HTTP: OsmAnd (GET query on even devices, POST form on odd ones) to the OsmAnd port or
 * /api/ingest/osmand, or Traccar forward bodies to `options.traccar`; one position per request, each sent
 * until it is stored.
 */
async function runHttp(device, index, options, stats, signal) {
  stats.connected++;
  try {
    while (!signal.aborted) {
      const reports = await device.nextReports(signal);
      for (const r of reports) {
        for (;;) {
          if (signal.aborted) return;
          const sent = performance.now();
          stats.packets++;
          try {
            const res = await fetch(...httpRequest(device, index, r, options));
            const text = await res.text();
            let body;
            try {
              body = JSON.parse(text);
            } catch {
              body = undefined;
            }
            if (res.status === 200 && body?.ok === true) {
              noteLatency(stats, performance.now() - sent);
              stats.acked++;
              break;
            }
            // A refused reading (unknown device, a bad field) is not sent again.
            stats.refused++;
            stats.lastError = `${device.id}: ${res.status} ${text.slice(0, 160)}`;
            break;
          } catch (err) {
            if (signal.aborted) return;
            noteError(stats, `${device.id}: ${err instanceof Error ? err.message : String(err)}`);
            stats.resent++;
            await sleep(RECONNECT_MS, signal);
          }
        }
      }
    }
  } finally {
    stats.connected--;
  }
}

function httpRequest(device, index, r, options) {
  if (options.traccar) {
    const headers = { 'content-type': 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    return [
      options.traccar,
      {
        method: 'POST',
        headers,
        body: JSON.stringify(traccarBody(device.id, index, r)),
      },
    ];
  }
  const base = options.osmandPort
    ? `http://${options.host}:${options.osmandPort}/`
    : `http://${options.host}:${options.port}/api/ingest/osmand`;
  const fields = osmandFields(device.id, r);
  if (index % 2 === 0) return [`${base}?${fields}`, {}];
  return [
    base,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    },
  ];
}

/**
 * Starts the simulated devices. Options: `teltonika`, `osmand` (counts), `host`, `port` (the API),
 * `teltonikaPort`, `osmandPort` (0 or absent: /api/ingest/osmand), `traccar` (URL; every device posts
 * forward bodies there instead), `token`, `intervalMs` (0: send as soon as acknowledged), `records`
 * ([min, max] per packet), `prefix`, `startMs` (the devices' first record time; default one interval
 * ago), `centre`, `seed`, and `codec` (the server's Teltonika codec module: encodeImei,
 * encodeAvlPacket). Returns `{stats, ids, stop()}`; `stop` resolves once every device has stopped.
 */
export function runSimulation(input) {
  // No abort signal reaches a request in flight: `stop` waits for each to be answered (a device does not
  // hang up on a reading it sent), so that a server stopped right after sees no aborted request.
  const options = {
    host: '127.0.0.1',
    intervalMs: 10_000,
    records: [1, 10],
    prefix: 'sim',
    centre: DEFAULT_CENTRE,
    ...input,
  };
  if (options.teltonika > 0 && !options.traccar && !options.codec)
    throw new Error('Teltonika devices need the server codec (codec: encodeImei, encodeAvlPacket)');
  const ids = deviceIds(options);
  const stats = newStats();
  const controller = new AbortController();
  const signal = controller.signal;
  // Every device waits on this one signal.
  setMaxListeners(0, signal);
  const runs = [];
  const all = [...ids.teltonika.map((id) => ['tel', id]), ...ids.osmand.map((id) => ['osm', id])];
  all.forEach(([kind, id], index) => {
    const device = new Device(id, index, options);
    const run =
      kind === 'tel' && !options.traccar
        ? runTeltonika(device, options, stats, signal)
        : runHttp(device, index, options, stats, signal);
    runs.push(run.catch((err) => noteError(stats, err instanceof Error ? err.message : String(err))));
  });
  return {
    ids,
    stats,
    async stop() {
      controller.abort();
      await Promise.all(runs);
    },
  };
}
