// Services-list reads on a fleet with 100,000 services (DESIGN §9): 10 % open (Due, two line
// items each), 90 % archived (closed) over about 2.5 years, spread over the demo fleet's 25 units.
// The data set is written straight into the server's database while it is stopped (`prepare`); the
// reads go through the HTTP API as the manager, against the ping baseline of the same run.
import { BenchError, load, login, probe, requireSuccess } from './lib.mjs';

const SERVICES = Number(process.env.BENCH_SERVICES || 100_000);
const DEMO_UNITS = 25;
const STEP = 900; // seconds between two generated services

function insertServices(dialect, at) {
  const sequence =
    dialect === 'postgres'
      ? `generate_series(1, ${SERVICES}) as seq(n)`
      : `(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${SERVICES}) select n from s) as seq`;
  const time = `${at} - n * ${STEP}`;
  return `insert into services (fleet_id, object_type, object_id, f, name, description, created_at, updated_at,
      start_date, end_date, planned_date, mileage, engine_hours, manual_cost, cf)
    select 1, 'u', (n % ${DEMO_UNITS}) + 1,
      case when n % 10 = 0 then 1 else 8 end,
      'Bench service ' || n, '', ${time}, ${time},
      ${time}, case when n % 10 = 0 then null else ${time} end, ${time},
      100000 + n, 2000 + n / 10, 150000, '[]'
    from ${sequence}`;
}

const LINES = `insert into service_line_items (service_id, position, name, kind, qty, cost)
  select id, 0, 'Oil filter', 2, 1000, 12500 from services where f = 1 and name like 'Bench service %'
  union all
  select id, 1, 'Labour', 1, 1500, 40000 from services where f = 1 and name like 'Bench service %'`;

let generatedAt = 0;

async function prepare(db) {
  generatedAt = Math.floor(Date.now() / 1000);
  await db.exec(insertServices(db.dialect, generatedAt));
  await db.exec(LINES);
}

async function measure(ctx, pathOf, countOf, extraHeaders = {}) {
  const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
  const path = pathOf(fid);
  const body = await probe(`${ctx.url}${path}`, { headers: { authorization } });
  const headers = { authorization, ...extraHeaders };
  const result = requireSuccess(await load(ctx.url, { path, headers, cpuMs: ctx.cpuMs }));
  result.services_per_reply = countOf(body);
  return result;
}

const count = (body) => (Array.isArray(body?.services) ? body.services.length : null);
const day = (t) => new Date(t * 1000).toISOString().slice(0, 10);

export const servicesActive = {
  id: 'services_active',
  title: `GET /api/fleets/{fid}/services (${SERVICES / 10} open of ${SERVICES})`,
  prepare,
  run: (ctx) => measure(ctx, (fid) => `/api/fleets/${fid}/services`, count),
};

/**
 * The same list as a browser asks for it (`Accept-Encoding: br, gzip`): the body goes out compressed,
 * from the copy kept per tag (http/encoded.ts), about a thirtieth of the bytes.
 */
export const servicesActiveCompressed = {
  id: 'services_active_br',
  title: `GET /api/fleets/{fid}/services (${SERVICES / 10} open, Accept-Encoding: br, gzip)`,
  requires: ['services_active'],
  run: (ctx) =>
    measure(ctx, (fid) => `/api/fleets/${fid}/services`, count, { 'accept-encoding': 'gzip, deflate, br' }),
};

export const servicesOfUnit = {
  id: 'services_unit',
  title: 'GET /api/fleets/{fid}/services?object_type=u&object_id=1 (unit page)',
  run: (ctx) => measure(ctx, (fid) => `/api/fleets/${fid}/services?object_type=u&object_id=1`, count),
};

export const servicesArchiveMonth = {
  id: 'services_archive_month',
  title: 'GET /api/fleets/{fid}/services/archived (one month)',
  run: (ctx) =>
    measure(
      ctx,
      (fid) =>
        `/api/fleets/${fid}/services/archived?from=${day(generatedAt - 60 * 86400)}&to=${day(generatedAt - 30 * 86400)}`,
      count,
    ),
};

/**
 * The same active list unchanged since the client's last read: each request sends the
 * `ETag` of a first read as `If-None-Match` and must be answered 304 with no body.
 */
export const servicesActiveNotModified = {
  id: 'services_active_304',
  title: `GET /api/fleets/{fid}/services with If-None-Match, unchanged (304)`,
  async run(ctx) {
    const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
    const path = `/api/fleets/${fid}/services`;
    const first = await fetch(`${ctx.url}${path}`, { headers: { authorization } });
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    if (first.status !== 200 || !etag)
      throw new BenchError(`${path} answered ${first.status} without an ETag`);
    const headers = { authorization, 'if-none-match': etag };
    const result = await load(ctx.url, { path, headers, cpuMs: ctx.cpuMs });
    const notModified = result.status_codes['304'] ?? 0;
    if (notModified < result.requests * 0.99)
      throw new BenchError(
        `${result.requests - notModified} of ${result.requests} requests were not answered 304`,
      );
    return { ...result, ok_requests: notModified, not_modified: notModified };
  },
};

export const benchmarks = [
  servicesActive,
  servicesActiveNotModified,
  servicesActiveCompressed,
  servicesOfUnit,
  servicesArchiveMonth,
];
