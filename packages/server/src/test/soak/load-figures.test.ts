import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failureWindows, serverFigures, starvedBy } from './load-figures.js';

/** The load soak's verdict on time-outs: the machine is blamed only on evidence. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-load-figures-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A probe file of `seconds` lines, one a second from t = 0, each with the given figures. */
function probe(name: string, seconds: number, line: { cpu: number; run?: number; wait?: number }): string {
  const file = path.join(dir, `${name}.jsonl`);
  const lines = Array.from({ length: seconds }, (_, k) =>
    JSON.stringify({ t: k * 1000, p50: 10, p99: 20, max: 30 + k, ...line }),
  );
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('load soak figures', () => {
  it('measures CPU and CPU wait as shares of the wall time', () => {
    const f = serverFigures(probe('starved', 60, { cpu: 200, run: 200, wait: 700 }), 0, 59_000);
    expect(f.cores).toBeCloseTo(0.2, 5);
    expect(f.waiting).toBeCloseTo(0.7, 5);
    expect(f.text).toContain('waiting for a CPU 70 %');
  });

  it('puts time-outs down to the machine when every server waited for a CPU and needed little', () => {
    const starved = serverFigures(probe('a', 60, { cpu: 200, run: 200, wait: 700 }), 0, 59_000);
    expect(starvedBy([starved, starved])).toContain('server 1 waited for a CPU 70 %');
  });

  it('blames Fleetkeep when a server had the CPU, needed more than half a core, or cannot tell', () => {
    const starved = serverFigures(probe('b', 60, { cpu: 200, run: 200, wait: 700 }), 0, 59_000);
    const hadCpu = serverFigures(probe('c', 60, { cpu: 300, run: 300, wait: 100 }), 0, 59_000);
    const busy = serverFigures(probe('d', 60, { cpu: 800, run: 800, wait: 600 }), 0, 59_000);
    const unknown = serverFigures(probe('e', 60, { cpu: 200 }), 0, 59_000);
    expect(hadCpu.waiting).toBeCloseTo(0.1, 5);
    expect(starvedBy([hadCpu])).toBeUndefined();
    expect(starvedBy([starved, hadCpu])).toBeUndefined();
    expect(starvedBy([busy])).toBeUndefined();
    expect(unknown.waiting).toBeUndefined();
    expect(starvedBy([unknown])).toBeUndefined();
  });

  it("places failed readings in 10 s windows beside the servers' loop delay and CPU wait", () => {
    const file = probe('f', 30, { cpu: 100, run: 100, wait: 200 });
    expect(failureWindows([], [file])).toBe('failed readings by time: none');
    const text = failureWindows([1_000, 2_000, 9_999, 15_000], [file]);
    expect(text).toContain('2 windows of 10 s');
    // Window 0 s to 10 s: 3 failures; probe lines 0 to 10 s, max 30 + k ms, 200 ms wait a second.
    expect(text).toContain('00:00:00 3 (loop max 40 ms, CPU wait 22 %)');
    expect(text).toContain('00:00:10 1 (loop max 50 ms');
  });
});
