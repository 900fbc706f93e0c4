// Teltonika over TCP (issue "Speed", DESIGN §9): 1,000 simulated trackers on one instance, each sending
// Codec 8E packets of 1–10 records and waiting for each acknowledgement (a record acknowledged is
// durable), as fast as they are acknowledged. The devices are the simulator's (scripts/sim/devices.mjs):
// plausible routes, odometers and ignition cycles, clocks started two days back so that every record is
// in the past. Figures: acknowledged records per second, acknowledgement latency (p50, p99: from the
// packet written to its acknowledgement read), the server's RSS after the run (run.mjs).
// BENCH_TELTONIKA_DEVICES changes the number of devices (quick mode: 100).
import path from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { deviceIds, runSimulation } from '../scripts/sim/devices.mjs';
import { ensureUnits } from '../scripts/sim/units.mjs';
import { BenchError, latencySummary, openFilesLimit, round, settings } from './lib.mjs';

const DEVICES = Number(process.env.BENCH_TELTONIKA_DEVICES || 1000);
const PREFIX = 'bench';
const RECORDS = [1, 10];
/** The devices' first record time: far enough back for a run of 1 record per second and device. */
const START_AGO_MS = 2 * 86_400_000;
const CODEC = path.join(ROOT, 'packages/server/dist/telematics/teltonika/codec.js');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const teltonika = {
  id: 'teltonika',
  title: `Teltonika TCP, ${DEVICES} devices, 1–10 records/packet`,
  async run(ctx) {
    if (!ctx.teltonikaPort) throw new BenchError('the server has no Teltonika port (TELTONIKA_PORT)');
    const limit = openFilesLimit();
    if (limit !== null && limit < DEVICES + 100)
      throw new BenchError(`open files limit ${limit} is below ${DEVICES + 100} (ulimit -n)`);
    const codec = await import(CODEC);
    const sim0 = performance.now();
    const ids = deviceIds({ prefix: PREFIX, teltonika: DEVICES }).teltonika;
    const made = await ensureUnits({ baseUrl: ctx.url, user: 'admin', password: ctx.password, ids });
    const unitsMs = performance.now() - sim0;
    const port = Number(new URL(ctx.url).port);
    const sim = runSimulation({
      teltonika: DEVICES,
      port,
      teltonikaPort: ctx.teltonikaPort,
      intervalMs: 0,
      records: RECORDS,
      prefix: PREFIX,
      startMs: Date.now() - START_AGO_MS,
      codec,
    });
    try {
      await sleep(Math.max(1, settings.warmupS) * 1000);
      if (sim.stats.connected < DEVICES)
        throw new BenchError(
          `${sim.stats.connected} of ${DEVICES} devices connected: ${sim.stats.lastError}`,
        );
      const before = { ...sim.stats, ackMs: undefined };
      sim.stats.ackMs.length = 0;
      const cpu0 = ctx.cpuMs();
      const t0 = performance.now();
      await sleep(settings.durationS * 1000);
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = ctx.cpuMs();
      const s = sim.stats;
      const acked = s.acked - before.acked;
      const packets = s.ackMs.length;
      const latency = latencySummary(s.ackMs, 1);
      if (s.errors > 0 || s.refused > 0)
        throw new BenchError(`${s.errors} errors, ${s.refused} refused handshakes: ${s.lastError}`);
      return {
        requests_per_sec: round(packets / seconds, 1),
        latency_ms: latency,
        requests: packets,
        ok_requests: packets,
        records_per_sec: Math.round(acked / seconds),
        records: acked,
        packets_per_sec: round(packets / seconds, 1),
        devices: DEVICES,
        connected: s.connected,
        resent: s.resent - before.resent,
        units_created: made.created,
        units_setup_ms: Math.round(unitsMs),
        duration_s: round(seconds, 1),
        ...(cpu0 !== null && cpu1 !== null && packets > 0
          ? { server_cpu_us_per_request: round(((cpu1 - cpu0) * 1000) / packets, 1) }
          : {}),
      };
    } finally {
      await sim.stop();
    }
  },
  describe: (f) =>
    `${f.records_per_sec} records/s acknowledged (${f.packets_per_sec} packets/s, ${f.devices} devices), ack p50 ${f.latency_ms.p50} ms, p99 ${f.latency_ms.p99} ms`,
};

export const benchmarks = [teltonika];
