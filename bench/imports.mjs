// A 10,000-row services import: the preview (the CSV file read by the server's
// parse call, then every row checked by core `checkImportRows`, as the browser's preview does) and the
// save (POST …/import/services: checked again on the server and written in one transaction), on each
// database of the run. Each phase is timed once per round over BENCH_IMPORT_ROUNDS rounds (default 3);
// the figures are medians. The services are Due rows of the demo fleet's first unit, named per round.
import { BenchError, login, probe } from './lib.mjs';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS || 10_000);
const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS || 3);

const round = (n, d) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const servicesImport = {
  id: 'imports',
  title: `services import, ${ROWS} rows (preview and save)`,
  async run(ctx) {
    const { checkImportRows, localDate } = await import('@fleetkeep/core');
    const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
    const api = `${ctx.url}/api/fleets/${fid}`;
    const { units } = await probe(`${api}/units`, { headers: { authorization } });
    const unit = units[0];
    if (!unit) throw new BenchError('the demo fleet has no unit');
    const timings = { parse: [], check: [], save: [], ping: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const lines = ['Unit;Name;Mileage;Total cost'];
      for (let i = 0; i < ROWS; i++)
        lines.push(`${unit.nm};Bench import ${r}-${i};${1000 + i};${(i % 500) + 0.5}`);
      const file = Buffer.from(lines.join('\n'));

      let t0 = performance.now();
      const parsed = await probe(`${api}/import/services/parse?name=bench.csv`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/octet-stream' },
        body: file,
      });
      timings.parse.push(performance.now() - t0);
      if (parsed.rows.length !== ROWS + 1) throw new BenchError(`parse gave ${parsed.rows.length} rows`);

      t0 = performance.now();
      const rows = parsed.rows
        .slice(1)
        .map((c) => ({ unit: c[0], name: c[1], mileage: c[2], total_cost: c[3] }));
      const check = checkImportRows('services', rows, {
        dateFormat: 'YYYY-MM-DD',
        today: localDate(0, Math.floor(Date.now() / 1000)),
        units: units.map((u) => ({ id: u.id, n: u.nm })),
        fleetId: fid,
      });
      timings.check.push(performance.now() - t0);
      if (check.issues.length) throw new BenchError(`preview found ${check.issues.length} issues`);

      // The server's responsiveness while it saves: a ping every 50 ms, the slowest answer kept.
      let saving = true;
      const pinger = (async () => {
        while (saving) {
          const p0 = performance.now();
          await probe(`${ctx.url}/api/ping`);
          timings.ping.push(performance.now() - p0);
          await new Promise((res) => setTimeout(res, 50));
        }
      })();
      t0 = performance.now();
      const saved = await probe(`${api}/import/services`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ date_format: 'YYYY-MM-DD', rows }),
      });
      timings.save.push(performance.now() - t0);
      saving = false;
      await pinger;
      if (saved.rows !== ROWS) throw new BenchError(`saved ${saved.rows} rows`);
    }
    const parse = median(timings.parse);
    const check = median(timings.check);
    const save = median(timings.save);
    const total = parse + check + save;
    return {
      // Rows per second through preview and save together.
      requests_per_sec: round(ROWS / (total / 1000), 1),
      latency_ms: {
        p50: round(total, 1),
        p99: round(Math.max(...timings.save) + parse + check, 1),
        avg: round(total, 1),
        max: round(total, 1),
      },
      requests: ROUNDS * 2,
      ok_requests: ROUNDS * 2,
      rows: ROWS,
      preview_parse_ms: round(parse, 1),
      preview_check_ms: round(check, 1),
      save_ms: round(save, 1),
      ping_during_save_max_ms: round(Math.max(...timings.ping), 1),
    };
  },
};

export const benchmarks = [servicesImport];
