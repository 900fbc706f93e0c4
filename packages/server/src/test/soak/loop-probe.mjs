import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Test-only preload (`node --import loop-probe.mjs`) of the load soak: measures the
 * server's own event-loop delay with `monitorEventLoopDelay` and its CPU time, and appends one JSON line
 * a second to FLEETKEEP_LOOP_PROBE_FILE: `{t, p50, p99, max}` (ms of delay in that second) and `cpu`
 * (ms of CPU the process used in that second), and on Linux `run` and `wait`: ms the main thread (the
 * event loop) spent on a CPU and ms it spent ready to run but waiting for one (`/proc/self/schedstat`,
 * fields 1 and 2, nanoseconds). It is never part of the server: the soak test starts the built server
 * with it, so a stall inside the server (a blocked loop, a server that needs more than a core) can be told
 * from a server that the shared machine kept off the CPU (a large `wait`), and from a starved client.
 */

const file = process.env.FLEETKEEP_LOOP_PROBE_FILE;
/** [on CPU, waiting for a CPU] of the main thread in ns, or undefined off Linux. */
function schedstat() {
  try {
    const [run, wait] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return [run, wait];
  } catch {
    return undefined;
  }
}

if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let cpu = process.cpuUsage();
  let sched = schedstat();
  const ms = (ns) => Math.round(ns / 1e5) / 10;
  const timer = setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const nextSched = schedstat();
    const line = {
      t: Date.now(),
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      cpu: Math.round((used.user + used.system) / 1000),
    };
    if (sched && nextSched) {
      line.run = Math.round((nextSched[0] - sched[0]) / 1e6);
      line.wait = Math.round((nextSched[1] - sched[1]) / 1e6);
    }
    sched = nextSched;
    histogram.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000);
  timer.unref();
}
