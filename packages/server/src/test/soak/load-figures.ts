import fs from 'node:fs';

/**
 * Figures of the load soak (load.soak.ts) that say whether a failed run was Fleetkeep's
 * fault or the machine's: the servers' event-loop delay, CPU and CPU wait from their probe files
 * (loop-probe.mjs), and the rule that puts time-outs down to a starved machine.
 */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface ProbeLine {
  t: number;
  p50: number;
  p99: number;
  max: number;
  cpu: number;
  /** ms the server's event loop spent on a CPU and waiting for one in that second (Linux). */
  run?: number;
  wait?: number;
}

function readProbe(file: string): ProbeLine[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ProbeLine);
}

export interface ServerFigures {
  text: string;
  /** CPU the server used, in cores (1 = one core busy all the time). */
  cores: number;
  /** Share of the time its event loop was ready to run but waited for a CPU; undefined off Linux. */
  waiting: number | undefined;
}

/** The server's event-loop delay, CPU and CPU wait over [from, to] from its probe file (loop-probe.mjs). */
export function serverFigures(file: string, from: number, to: number): ServerFigures {
  const lines = readProbe(file).filter((l) => l.t >= from && l.t <= to + 1000);
  if (lines.length === 0) return { text: 'no probe lines', cores: 0, waiting: undefined };
  const maxes = lines.map((l) => l.max).sort((a, b) => a - b);
  // Shares of the wall time the lines cover: a starved probe writes its lines late, not each second.
  const wall = lines.at(-1)!.t - lines[0]!.t + 1000;
  const cores = lines.reduce((n, l) => n + l.cpu, 0) / wall;
  const sched = lines.filter((l) => l.wait !== undefined);
  const waiting = sched.length > 0 ? sched.reduce((n, l) => n + l.wait!, 0) / wall : undefined;
  const worst = [...lines].sort((a, b) => b.max - a.max).slice(0, 3);
  const text = [
    `loop delay max ${maxes.at(-1)} ms, p99 of per-second max ${percentile(maxes, 99)} ms,`,
    `seconds over 200 ms ${maxes.filter((m) => m > 200).length} of ${lines.length};`,
    `CPU ${(cores * 100).toFixed(0)} % of a core;`,
    waiting === undefined
      ? 'CPU wait unknown (no /proc schedstat);'
      : `loop ready but waiting for a CPU ${(waiting * 100).toFixed(0)} % of the time;`,
    `worst ${worst.map((w) => `${new Date(w.t).toISOString().slice(11, 19)} ${w.max} ms`).join(', ')}`,
  ].join(' ');
  return { text, cores, waiting };
}

/**
 * When the machine, not Fleetkeep, explains the time-outs (the load soak on the shared 2-core
 * machine, load 8 to 15 from other work): every server's event loop waited for a CPU at least
 * STARVED_WAITING of the run (it had work but the kernel ran other processes; /proc schedstat), while the
 * CPU it did use stayed under FITS_CORES of a core (the same work fits a quiet core with room to spare,
 * so it was not the server that needed more than the machine has). Any other failure (a status, a broken
 * connection, an unexpected body) and time-outs without that evidence fail the run.
 */
const STARVED_WAITING = 0.5;
const FITS_CORES = 0.5;

export function starvedBy(servers: ServerFigures[]): string | undefined {
  const starved = servers.every(
    (s) => s.waiting !== undefined && s.waiting >= STARVED_WAITING && s.cores < FITS_CORES,
  );
  if (!starved) return undefined;
  return servers
    .map(
      (s, k) =>
        `server ${k} waited for a CPU ${(s.waiting! * 100).toFixed(0)} % of the run and used ${(s.cores * 100).toFixed(0)} % of a core`,
    )
    .join('; ');
}

/**
 * The 10-second windows of the run with the most failed readings (by when each request started), each
 * with the servers' worst event-loop delay and CPU wait in it: failures in windows where every server
 * turned its loop quickly point inside Fleetkeep (a queue), not at a stalled or starved process.
 */
export function failureWindows(failedAt: number[], files: string[], top = 5): string {
  if (failedAt.length === 0) return 'failed readings by time: none';
  const windows = new Map<number, number>();
  for (const t of failedAt) {
    const w = Math.floor(t / 10_000) * 10_000;
    windows.set(w, (windows.get(w) ?? 0) + 1);
  }
  const probes = files.map((f) => readProbe(f));
  const worst = [...windows.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const parts = worst.map(([w, n]) => {
    const servers = probes.map((lines) => {
      const inside = lines.filter((l) => l.t >= w && l.t < w + 11_000);
      const max = Math.max(0, ...inside.map((l) => l.max));
      const wait = inside.reduce((sum, l) => sum + (l.wait ?? 0), 0) / 10_000;
      return `loop max ${max} ms, CPU wait ${(wait * 100).toFixed(0)} %`;
    });
    return `${new Date(w).toISOString().slice(11, 19)} ${n} (${servers.join(' / ')})`;
  });
  return `failed readings by time, ${windows.size} windows of 10 s, worst: ${parts.join('; ')}`;
}
