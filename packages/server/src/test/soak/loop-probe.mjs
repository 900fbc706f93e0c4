import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Test-only preload (`node --import loop-probe.mjs`) of the load soak (issue 14 item 4): measures the
 * server's own event-loop delay with `monitorEventLoopDelay` and its CPU time, and appends one JSON line
 * a second to FLEETKEEP_LOOP_PROBE_FILE: `{t, p50, p99, max}` (ms of delay in that second) and `cpu`
 * (ms of CPU the process used in that second). It is never part of the server: the soak test starts the
 * built server with it, so a stall inside the server (a blocked loop) can be told from a client that is
 * starved of CPU on a shared machine.
 */

const file = process.env.FLEETKEEP_LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let cpu = process.cpuUsage();
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  const timer = setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const line = {
      t: Date.now(),
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      cpu: Math.round((used.user + used.system) / 1000),
    };
    histogram.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000);
  timer.unref();
}
