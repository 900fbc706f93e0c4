// `npm run simulate -- --teltonika 50 --osmand 20`: simulated trucks drive against a running Fleetkeep
// (DESIGN §3 "Telematics ingestion"): Teltonika trackers over TCP (Codec 8E, the server's own encoder),
// OsmAnd trackers over HTTP, or with `--traccar URL` a Traccar server's position forwarding. Plausible
// routes, odometers and ignition cycles come from sim/motion.mjs, the devices from sim/devices.mjs.
// `--create-units` creates the missing units through the API first. Prints a summary every few seconds.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bold, npm, ROOT, red } from './lib.mjs';
import { deviceIds, parseRange, runSimulation } from './sim/devices.mjs';
import { ensureUnits } from './sim/units.mjs';

const HELP = `Usage: npm run simulate -- [options]

Devices
  --teltonika N          Teltonika trackers over TCP, Codec 8E (default 0)
  --osmand N             OsmAnd trackers over HTTP, one position per request (default 0)
  --traccar URL          post Traccar forward bodies to URL instead (e.g. http://host:8080/api/ingest/traccar)
  --token T              bearer token of the Traccar forwarding (TRACCAR_FORWARD_TOKEN)
  --device-prefix P      device identifiers P-tel-0001…, P-osm-0001… (default sim)

Server
  --host H               server host (default 127.0.0.1)
  --port P               API port (default 8080): OsmAnd goes to /api/ingest/osmand here
  --teltonika-port P     Teltonika port (default 5027, TELTONIKA_PORT)
  --osmand-port P        send OsmAnd to this port (OSMAND_PORT) instead of /api/ingest/osmand

Motion
  --interval MS          time between a device's packets (default 10000; 0: as fast as acknowledged)
  --records A..B         records per packet, a number or a range (default 1..10)
  --backfill H           start the devices' clocks H hours in the past (they catch up at full speed)
  --duration S           stop after S seconds (default: run until Ctrl-C)
  --seed N               the random seed (default 1): the same seed drives the same routes

Units
  --create-units         create a unit for every missing device identifier through the API
  --user LOGIN --password PW   a fleet administrator (needed by --create-units)
  --fleet ID             the fleet of the new units (default: the user's current fleet)
`;

const CODEC = path.join(ROOT, 'packages/server/dist/telematics/teltonika/codec.js');

function number(value, name, min = 0) {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number of at least ${min}`);
  return n;
}

async function loadCodec() {
  if (!fs.existsSync(CODEC)) {
    console.log('building the server (npm run build:ts) for its Teltonika encoder…');
    if ((await npm(['run', 'build:ts'])) !== 0) throw new Error('npm run build:ts failed');
  }
  return import(CODEC);
}

function percentile(values, q) {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

async function main() {
  const { values } = parseArgs({
    options: {
      teltonika: { type: 'string', default: '0' },
      osmand: { type: 'string', default: '0' },
      traccar: { type: 'string' },
      token: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      'teltonika-port': { type: 'string', default: '5027' },
      'osmand-port': { type: 'string' },
      interval: { type: 'string', default: '10000' },
      records: { type: 'string', default: '1..10' },
      backfill: { type: 'string', default: '0' },
      duration: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'device-prefix': { type: 'string', default: 'sim' },
      'create-units': { type: 'boolean', default: false },
      user: { type: 'string' },
      password: { type: 'string' },
      fleet: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const teltonika = number(values.teltonika, 'teltonika');
  const osmand = number(values.osmand, 'osmand');
  if (teltonika + osmand === 0)
    throw new Error(`no devices: pass --teltonika N and/or --osmand N\n\n${HELP}`);
  const intervalMs = number(values.interval, 'interval');
  const backfillH = number(values.backfill, 'backfill');
  const options = {
    teltonika,
    osmand,
    host: values.host,
    port: number(values.port, 'port', 1),
    teltonikaPort: number(values['teltonika-port'], 'teltonika-port', 1),
    osmandPort: values['osmand-port'] ? number(values['osmand-port'], 'osmand-port', 1) : undefined,
    traccar: values.traccar,
    token: values.token,
    intervalMs,
    records: parseRange(values.records),
    prefix: values['device-prefix'],
    seed: number(values.seed, 'seed'),
    startMs: backfillH > 0 ? Date.now() - backfillH * 3_600_000 : undefined,
  };
  const baseUrl = `http://${options.host}:${options.port}`;

  if (values['create-units']) {
    if (!values.user || !values.password) throw new Error('--create-units needs --user and --password');
    const ids = deviceIds(options);
    const done = await ensureUnits({
      baseUrl,
      user: values.user,
      password: values.password,
      fleet: values.fleet ? number(values.fleet, 'fleet', 1) : undefined,
      ids: [...ids.teltonika, ...ids.osmand],
      onProgress: (n, of) => {
        if (n % 50 === 0 || n === of) process.stdout.write(`\r  units created: ${n} of ${of}`);
      },
    });
    if (done.created) process.stdout.write('\n');
    console.log(`fleet ${done.fleet}: ${done.created} units created, ${done.existing} already there`);
  }

  if (teltonika > 0 && !options.traccar) options.codec = await loadCodec();
  const sim = runSimulation(options);
  const target = options.traccar
    ? `Traccar forwarding to ${options.traccar}`
    : [
        teltonika ? `${teltonika} Teltonika → ${options.host}:${options.teltonikaPort}` : '',
        osmand
          ? `${osmand} OsmAnd → ${options.osmandPort ? `${options.host}:${options.osmandPort}` : `${baseUrl}/api/ingest/osmand`}`
          : '',
      ]
        .filter(Boolean)
        .join(', ');
  console.log(bold(`simulating ${target}; Ctrl-C stops`));

  const started = performance.now();
  let last = { t: started, acked: 0 };
  const summary = (final = false) => {
    const s = sim.stats;
    const t = performance.now();
    const rate = final ? (s.acked * 1000) / (t - started) : ((s.acked - last.acked) * 1000) / (t - last.t);
    last = { t, acked: s.acked };
    const p99 = percentile(s.ackMs, 0.99);
    const line =
      `${final ? 'total' : `${Math.round((t - started) / 1000)} s`}: ${s.connected} connected, ` +
      `${s.acked} records acknowledged (${Math.round(rate)}/s${final ? ' on average' : ''}), ` +
      `ack p99 ${p99 === null ? '-' : p99.toFixed(1)} ms, ${s.resent} resent, ${s.refused} refused, ${s.errors} errors`;
    console.log(s.lastError ? `${line}\n  last error: ${red(s.lastError)}` : line);
    s.lastError = undefined;
  };
  const timer = setInterval(summary, 5000);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    await sim.stop();
    summary(true);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (values.duration) {
    await new Promise((r) => setTimeout(r, number(values.duration, 'duration') * 1000));
    await stop();
  }
}

main().catch((err) => {
  console.error(red(err instanceof Error ? err.message : String(err)));
  process.exitCode = 1;
});
