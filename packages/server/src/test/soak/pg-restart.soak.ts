import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  BROKEN,
  type Instance,
  isErrorShape,
  type Outcome,
  signIn,
  sleep,
  startInstance,
  TIMED_OUT,
  timed,
} from './instance.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

/**
 * PostgreSQL restarted under a running server (spec §8 connection errors): a private
 * cluster is stopped while clients read and write. Every request must end before its timeout with a
 * reply in the error shape `{error, reason}` (the web app shows its connection overlay for 1 and 500) —
 * never a hang, a broken connection or a 500 without that shape — and once the cluster is started again
 * the same Fleetkeep process, never restarted, answers every request again.
 */

const REQUEST_TIMEOUT_MS = 20_000;
const UP_MS = 5_000;
const DOWN_MS = 10_000;
/** How long Fleetkeep may take to serve again after PostgreSQL is back. */
const RECOVERY_MS = 30_000;
const CLIENTS = 6;

interface Tally {
  attempts: number;
  ok: number;
  /** Error replies in the `{error, reason}` shape. */
  clean: number;
  /** Anything else: hangs, broken connections, error replies of another shape. */
  bad: string[];
}

const tally = (): Tally => ({ attempts: 0, ok: 0, clean: 0, bad: [] });

function count(t: Tally, what: string, o: Outcome): void {
  t.attempts++;
  if (o.status === 200) t.ok++;
  else if (o.status === TIMED_OUT) t.bad.push(`${what}: no answer within ${REQUEST_TIMEOUT_MS} ms`);
  else if (o.status === BROKEN) t.bad.push(`${what}: connection broken (${o.error})`);
  else if (isErrorShape(o.body)) t.clean++;
  else t.bad.push(`${what}: ${o.status} ${JSON.stringify(o.body)?.slice(0, 200)}`);
}

describe('PostgreSQL restarted under a running server', () => {
  let cluster: PrivatePostgres | undefined;
  let instance: Instance | undefined;
  let dataDir: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetkeep-pgrestart-'));
    cluster = await startPrivatePostgres();
  }, 120_000);

  afterAll(async () => {
    await instance?.kill();
    cluster?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails cleanly while it is down and serves again when it is back, without a restart', async () => {
    const pgc = cluster!;
    instance = await startInstance({ dataDir, databaseUrl: pgc.url });
    const srv = instance;
    const manager = await signIn(srv.url, 'manager');
    const fid = (await manager.get('/api/fleets')).body.fleets[0].id as number;
    const units = (await manager.get(`/api/fleets/${fid}/units`)).body.units as { id: number }[];
    const api = `${srv.url}/api/fleets/${fid}`;

    /** One client's requests in turn until `until()`; a read, a list and a write each time. */
    const client = async (t: Tally, c: number, until: () => boolean) => {
      for (let n = 0; !until(); n++) {
        const opts = { ssid: manager.ssid, timeoutMs: REQUEST_TIMEOUT_MS };
        count(t, 'GET units', await timed('GET', `${api}/units`, opts));
        count(t, 'GET services', await timed('GET', `${api}/services`, opts));
        const body = { n: `pg restart c${c} #${n}`, t: 'u', uid: units[n % units.length]!.id, f: 1 };
        count(t, 'POST service', await timed('POST', `${api}/services`, { ...opts, body }));
      }
    };
    const phase = async (ms: number, during?: () => void) => {
      const t = tally();
      const end = Date.now() + ms;
      const clients = Array.from({ length: CLIENTS }, (_, c) => client(t, c, () => Date.now() > end));
      during?.();
      await Promise.all(clients);
      return t;
    };

    const before = await phase(UP_MS);
    // Stopped while the clients run (pg_ctl waits for the shutdown, so requests meet it at every stage).
    const down = await phase(DOWN_MS, () => {
      setTimeout(() => pgc.stop(), 500);
    });
    const downAfter = await phase(3_000);

    pgc.start();
    const recoveryStarted = Date.now();
    let recovered = false;
    while (!recovered && Date.now() - recoveryStarted < RECOVERY_MS) {
      const o = await timed('GET', `${api}/services`, { ssid: manager.ssid, timeoutMs: REQUEST_TIMEOUT_MS });
      recovered = o.status === 200;
      if (!recovered) await sleep(250);
    }
    const recoveryMs = Date.now() - recoveryStarted;
    const after = await phase(UP_MS);

    const report = (t: Tally) => ({ attempts: t.attempts, ok: t.ok, clean: t.clean, bad: t.bad.length });
    console.log(
      `PostgreSQL restart: ${JSON.stringify({
        before: report(before),
        stopping: report(down),
        stopped: report(downAfter),
        recoveryMs,
        after: report(after),
      })}`,
    );
    expect(srv.child.exitCode, srv.output.join('').slice(-4000)).toBeNull();
    expect(before.bad).toEqual([]);
    expect(before.ok).toBe(before.attempts);
    expect(down.bad).toEqual([]);
    expect(downAfter.bad).toEqual([]);
    // With the database gone every request that needs it fails, cleanly.
    expect(downAfter.clean).toBe(downAfter.attempts);
    expect(recovered).toBe(true);
    expect(after.bad).toEqual([]);
    expect(after.ok).toBe(after.attempts);
    expect(after.attempts).toBeGreaterThan(0);
  }, 300_000);
});
