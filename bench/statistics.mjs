// Statistics reads (spec §7 "Fleet" statistics; DESIGN §9 "dashboard and report aggregation"
// "the dashboard on 10,000 units × 365 days with 100,000 services and 1,000,000 fuel fillings") on a
// generated fleet of 10,000 units with 365 days of counter history each (3.65 million counter_days
// rows), 100,000 closed services (half with a hand-entered total, half with two line items) and
// 1,000,000 fuel fillings over the year, with the daily cost aggregates (`cost_days`) the server keeps on
// write and their running totals, added up here in SQL from those rows as the backfills of migrations 012
// and 021 do. The fleet is a fleet of
// its own in the demo account, shared with the demo fleet's members, so that the other benchmarks keep
// their data sets. Written straight into the database while the server is stopped (`prepare`); the
// reads go through the HTTP API as the manager, against the ping baseline.
//
// The dashboard's call is `statistics_fleet_year`. Each benchmark also records `first_request_ms`, the
// time of its first request, computed from the aggregates (the ones after it are answered from the
// statistics cache until a write or a unit event changes the fleet: modules/statistics/cache.ts).
import autocannon from 'autocannon';
import { BenchError, load, login, probe, requireSuccess } from './lib.mjs';

const UNITS = Number(process.env.BENCH_STAT_UNITS || 10_000);
const DAYS = 365;
const SERVICES = Number(process.env.BENCH_STAT_SERVICES || 10 * UNITS);
const FILLINGS = Number(process.env.BENCH_STAT_FILLINGS || 100 * UNITS);
const FLEET = 'Bench statistics';
const TZ = 180; // UTC+3 without daylight saving, like the demo fleet
const DAY = 86_400;

/** Start of today in the fleet zone (no daylight saving at UTC+3); `prepare` sets it again. */
const startOfToday = (now) => Math.floor((now + TZ * 60) / DAY) * DAY - TZ * 60;
let today = startOfToday(Math.floor(Date.now() / 1000));

/** `n` from 1 to `count` as a table expression of the dialect. */
const series = (dialect, count, alias) =>
  dialect === 'postgres'
    ? `generate_series(1, ${count}) as ${alias}(n)`
    : `(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${count}) select n from s) as ${alias}`;

async function prepare(db) {
  const now = Math.floor(Date.now() / 1000);
  today = startOfToday(now);
  const fleet = `(select id from fleets where name = '${FLEET}')`;
  await db.exec(`insert into fleets (account_id, name, tz, cur, ms, fm, created_at)
    select account_id, '${FLEET}', ${TZ}, 'EUR', 0, 1, ${now} from fleets where id = 1`);
  await db.exec(`insert into fleet_users (fleet_id, user_id, acl)
    select ${fleet}, user_id, acl from fleet_users where fleet_id = 1`);
  await db.exec(`insert into units (account_id, fleet_id, name, device_id, mileage, engine_hours, base_mileage,
      base_engine_hours, pulled_mileage, pulled_engine_hours, joined_at, last_time, props, params, cf, ins, created_at,
      counter_day, counter_day_end)
    select (select account_id from fleets where id = 1), ${fleet}, 'Bench unit ' || u.n, 'bench-stat-' || u.n,
      100000 + ${DAYS} * 250, 2000 + ${DAYS} * 8, 0, 0, 0, 0, ${now}, ${now}, '{}', '{}', '[]', 0, ${now},
      ${today}, ${today + DAY}
    from ${series(db.dialect, UNITS, 'u')}`);
  // Day k (1 … 365, 365 = today, the units' latest history day): about 250 km and 8 engine hours a day,
  // a little different per unit.
  await db.exec(`insert into counter_days (unit_id, day, first_mileage, last_mileage, first_engine_hours,
      last_engine_hours)
    select units.id, ${today} - (${DAYS} - d.n) * ${DAY},
      100000 + d.n * 250 - 150, 100000 + d.n * 250 + (units.id * 7 + d.n * 13) % 100,
      2000 + d.n * 8 - 5, 2000 + d.n * 8 + (units.id + d.n) % 3
    from units cross join ${series(db.dialect, DAYS, 'd')}
    where units.fleet_id = ${fleet}`);
  const first = `(select min(id) from units where fleet_id = ${fleet})`;
  await db.exec(`insert into services (fleet_id, object_type, object_id, f, name, description, created_at,
      updated_at, start_date, end_date, manual_cost, cf)
    select ${fleet}, 'u', ${first} + s.n % ${UNITS}, 8, 'Bench stat service ' || s.n, '', ${now}, ${now},
      ${today} - (s.n % ${DAYS}) * ${DAY}, ${today} - (s.n % ${DAYS}) * ${DAY},
      case when s.n % 2 = 0 then 150000 + s.n else null end, '[]'
    from ${series(db.dialect, SERVICES, 's')}`);
  await db.exec(`insert into service_line_items (service_id, position, name, kind, qty, cost)
    select id, 0, 'Oil filter', 2, 1000, 12500 from services where manual_cost is null and name like 'Bench stat service %'
    union all
    select id, 1, 'Labour', 1, 1500, 40000 from services where manual_cost is null and name like 'Bench stat service %'`);
  // Fuel: 100 fillings a unit over the year, at 06:00 to 17:00 fleet time, 20 to 69.999 litres at
  // 1.659 a litre (total = volume × price, rounded half up to thousandths as the server does).
  await db.exec(`insert into fuel_fillings (fleet_id, unit_id, filled_at, fuel_type, volume, volume_unit, price,
      manual_cost, total_cost, mileage, full_tank, station, description, cf, creator_id, created_at, updated_at)
    select ${fleet}, ${first} + f.n % ${UNITS}, ${today} - ((f.n / ${UNITS}) * 7 % ${DAYS}) * ${DAY} + (6 + f.n % 12) * 3600,
      'Diesel', 20000 + (f.n * 37) % 50000, 1, 1659, null, ((20000 + (f.n * 37) % 50000) * 1659 + 500) / 1000,
      null, 1, '', '', '[]', null, ${now}, ${now}
    from ${series(db.dialect, FILLINGS, 'f')}`);
  // PostgreSQL has no statistics of the rows just loaded: without them it plans the join of the
  // services with their line items' totals below as a nested loop over both (hours).
  if (db.dialect === 'postgres')
    await db.exec('analyze services; analyze service_line_items; analyze fuel_fillings');
  // The daily aggregates of migration 012 (UTC+3 has no daylight saving: a day starts at 21:00 UTC).
  const lineTotal = '(qty * cost + 500) / 1000';
  await db.exec(`insert into cost_days (fleet_id, day, object_type, object_id, services_cost, services_count,
      fuel_cost, fuel_count, fuel_l, fuel_gal)
    select fleet_id, day, 'u', object_id, sum(sc), sum(scount), sum(fc), sum(fcount), sum(fl), 0 from (
      select s.fleet_id, s.end_date as day, s.object_id, coalesce(li.total, s.manual_cost, 0) as sc,
        1 as scount, 0 as fc, 0 as fcount, 0 as fl
      from services s left join (select service_id, sum(${lineTotal}) as total from service_line_items
        group by service_id) li on li.service_id = s.id
      where s.fleet_id = ${fleet} and (s.f & 24) = 8
      union all
      select fleet_id, ((filled_at + ${TZ * 60}) / ${DAY}) * ${DAY} - ${TZ * 60}, unit_id, 0, 0, total_cost, 1,
        volume
      from fuel_fillings where fleet_id = ${fleet}
    ) x group by fleet_id, day, object_id`);
  await db.exec(`insert into cost_days (fleet_id, day, object_type, object_id, services_cost, services_count,
      fuel_cost, fuel_count, fuel_l, fuel_gal)
    select fleet_id, day, '*', 0, sum(services_cost), sum(services_count), sum(fuel_cost), sum(fuel_count),
      sum(fuel_l), sum(fuel_gal)
    from cost_days where fleet_id = ${fleet} and object_type = 'u' group by fleet_id, day`);
  // Their running totals (migration 021), as its backfill computes them.
  const figures = ['services_cost', 'services_count', 'fuel_cost', 'fuel_count', 'fuel_l', 'fuel_gal'];
  await db.exec(`update cost_days set ${figures.map((f) => `run_${f} = w.r_${f}`).join(', ')}
    from (select object_type as t, object_id as o, day as d,
      ${figures.map((f) => `sum(${f}) over (partition by object_type, object_id order by day) as r_${f}`).join(', ')}
      from cost_days where fleet_id = ${fleet}) as w
    where cost_days.fleet_id = ${fleet} and cost_days.object_type = w.t and cost_days.object_id = w.o
      and cost_days.day = w.d`);
  await db.exec(`insert into statistics_versions (fleet_id, version) values (${fleet}, 1)`);
  // PostgreSQL plans on statistics that autovacuum gathers soon after a bulk load; gather them now.
  if (db.dialect === 'postgres')
    await db.exec(
      'analyze units; analyze counter_days; analyze services; analyze fuel_fillings; analyze cost_days',
    );
}

const day = (t) => new Date((t + TZ * 60) * 1000).toISOString().slice(0, 10);

async function measure(ctx, pathOf, check) {
  const { authorization } = await login(ctx.url, 'manager', ctx.password);
  const { fleets } = await probe(`${ctx.url}/api/fleets`, { headers: { authorization } });
  const fleet = fleets.find((f) => f.n === FLEET);
  if (!fleet) throw new BenchError(`the generated fleet '${FLEET}' is missing`);
  const path = await pathOf(fleet.id, authorization);
  const started = performance.now();
  const body = await probe(`${ctx.url}${path}`, { headers: { authorization } });
  const firstRequestMs = Math.round(performance.now() - started);
  const figures = check(body);
  const result = requireSuccess(await load(ctx.url, { path, headers: { authorization } }));
  return { ...result, first_request_ms: firstRequestMs, ...figures };
}

function fleetFigures(body) {
  if (!Array.isArray(body?.units))
    throw new BenchError(`no unit rows: ${JSON.stringify(body).slice(0, 200)}`);
  if (body.units.length !== UNITS) throw new BenchError(`${body.units.length} unit rows, expected ${UNITS}`);
  if (!(body.mileage > 0) || !(body.services_cost > 0) || !(body.fuel_cost > 0))
    throw new BenchError(`empty totals: ${JSON.stringify({ ...body, units: undefined, days: undefined })}`);
  return {
    units_per_reply: body.units.length,
    days_per_reply: body.days.length,
    reply_bytes: JSON.stringify(body).length,
    fleet_mileage: body.mileage,
    fleet_services_cost: body.services_cost,
    fleet_services_count: body.services_count,
    fleet_fuel_cost: body.fuel_cost,
    fleet_fuel_count: body.fuel_count,
  };
}

export const statisticsFleetMonth = {
  id: 'statistics_fleet_month',
  title: `GET /api/fleets/{fid}/statistics (30 days, ${UNITS} units × ${DAYS} days)`,
  prepare,
  run: (ctx) =>
    measure(
      ctx,
      (fid) => `/api/fleets/${fid}/statistics?from=${day(today - 29 * DAY)}&to=${day(today)}`,
      fleetFigures,
    ),
};

export const statisticsFleetYear = {
  id: 'statistics_fleet_year',
  title: `Dashboard: GET /api/fleets/{fid}/statistics (365 days, ${UNITS} units, ${SERVICES} services, ${FILLINGS} fillings)`,
  requires: ['statistics_fleet_month'],
  run: (ctx) =>
    measure(
      ctx,
      (fid) => `/api/fleets/${fid}/statistics?from=${day(today - 364 * DAY)}&to=${day(today)}`,
      fleetFigures,
    ),
};

export const statisticsUnitYear = {
  id: 'statistics_unit_year',
  title: 'GET /api/fleets/{fid}/units/{uid}/statistics (365 days, unit page)',
  requires: ['statistics_fleet_month'],
  run: (ctx) =>
    measure(
      ctx,
      async (fid, authorization) => {
        const { units } = await probe(`${ctx.url}/api/fleets/${fid}/units`, { headers: { authorization } });
        return `/api/fleets/${fid}/units/${units[units.length >> 1].id}/statistics?from=${day(today - 364 * DAY)}&to=${day(today)}`;
      },
      (body) => {
        if (!(body?.mileage > 0)) throw new BenchError(`no distance: ${JSON.stringify(body)}`);
        return {
          unit_mileage: body.mileage,
          unit_services_cost: body.services_cost,
          unit_fuel_cost: body.fuel_cost,
        };
      },
    ),
};

/** The generated fleet, as the manager reads it. */
async function benchFleet(ctx) {
  const { authorization } = await login(ctx.url, 'manager', ctx.password);
  const { fleets } = await probe(`${ctx.url}/api/fleets`, { headers: { authorization } });
  const fleet = fleets.find((f) => f.n === FLEET);
  if (!fleet) throw new BenchError(`the generated fleet '${FLEET}' is missing`);
  return { fid: fleet.id, authorization };
}

const yearPath = (fid, end = today) =>
  `/api/fleets/${fid}/statistics?from=${day(end - 364 * DAY)}&to=${day(end)}`;

/**
 * The dashboard's call when no kept reply can help: every request asks for another year (365-day
 * windows ending on each of the last 300 days, in turn), so each one is computed from the aggregates
 * for the whole fleet (the cache keeps 16 replies). A fixed number of requests (3 per connection, no
 * warm-up), each allowed two minutes: a full computation takes longer than the load's usual timeout
 * with 10 waiting, and requests left running would weigh on the next benchmark.
 */
export const statisticsFleetYearUncached = {
  id: 'statistics_fleet_year_uncached',
  title: `Dashboard uncached: GET /api/fleets/{fid}/statistics (another 365-day window each request, ${UNITS} units)`,
  requires: ['statistics_fleet_month'],
  async run(ctx) {
    const { fid, authorization } = await benchFleet(ctx);
    const paths = Array.from({ length: 300 }, (_, k) => yearPath(fid, today - k * DAY));
    let next = 0;
    const started = performance.now();
    const r = await new Promise((resolve, reject) => {
      autocannon(
        {
          url: `${ctx.url}${paths[0]}`,
          connections: ctx.connections,
          amount: 3 * ctx.connections,
          timeout: 120,
          headers: { authorization },
          requests: [
            {
              setupRequest: (req) => {
                req.path = paths[next++ % paths.length];
                return req;
              },
            },
          ],
        },
        (err, result) => (err ? reject(err) : resolve(result)),
      );
    });
    const seconds = (performance.now() - started) / 1000;
    const bad = r.non2xx + r.errors + r.timeouts;
    if (r.requests.total === 0 || bad > 0)
      throw new BenchError(`${bad} of ${r.requests.total} uncached requests failed`);
    return {
      requests_per_sec: Math.round((r.requests.total / seconds) * 10) / 10,
      latency_ms: { p50: r.latency.p50, p99: r.latency.p99, avg: r.latency.average, max: r.latency.max },
      requests: r.requests.total,
      ok_requests: r.requests.total - bad,
      non2xx: r.non2xx,
      mismatches: 0,
      errors: r.errors,
      timeouts: r.timeouts,
      status_codes: {},
      duration_s: Math.round(seconds * 10) / 10,
      connections: ctx.connections,
      windows: paths.length,
    };
  },
};

/**
 * The dashboard's call while the fleet changes: each connection closes a service (POST, a hand total,
 * today, a unit drawn at random) and then reads the year, so every read follows a write and finds the
 * fleet's statistics version moved (the reply kept is patched for the units written since: cache.ts).
 * `requests_per_sec` counts both; `reads_per_sec` is the reads alone (half, one of each per round).
 * Afterwards the year's service count must have grown by the services written, and the unit rows
 * must add up to it.
 *
 * (A service, not a fuel filling: on SQLite a filling's write reads the unit's last full tank on the
 * fleet's time index, 1,000,000 rows, about a second a filling here — modules/fuel/load.ts.)
 */
export const statisticsFleetYearWrites = {
  id: 'statistics_fleet_year_writes',
  title: `Dashboard after writes: POST a closed service, then GET /api/fleets/{fid}/statistics (365 days, ${UNITS} units)`,
  requires: ['statistics_fleet_month'],
  async run(ctx) {
    const { fid, authorization } = await benchFleet(ctx);
    const path = yearPath(fid);
    const { units } = await probe(`${ctx.url}/api/fleets/${fid}/units`, { headers: { authorization } });
    const ids = units.map((u) => u.id);
    const before = await probe(`${ctx.url}${path}`, { headers: { authorization } });
    let written = 0;
    let n = 0;
    const result = requireSuccess(
      await load(ctx.url, {
        path,
        headers: { authorization },
        requests: [
          {
            method: 'POST',
            path: `/api/fleets/${fid}/services`,
            headers: { authorization, 'content-type': 'application/json' },
            setupRequest: (req) => {
              n = (n * 1103515245 + 12345) % 2 ** 31;
              req.body = JSON.stringify({
                n: 'Bench closed service',
                t: 'u',
                uid: ids[n % ids.length],
                f: 8,
                start_date: day(today),
                end_date: day(today),
                manual_cost: 120.5,
                li: [],
              });
              return req;
            },
            onResponse: (status) => {
              if (status >= 200 && status < 300) written++;
            },
          },
          { method: 'GET', path, headers: { authorization } },
        ],
      }),
    );
    // Writes still in flight when the warm-up or the load stopped land without an answer counted (at
    // most one per connection each time): let them finish.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await probe(`${ctx.url}${path}`, { headers: { authorization } });
    const grown = after.services_count - before.services_count;
    const unanswered = 2 * ctx.connections;
    if (grown < written || grown > written + unanswered)
      throw new BenchError(
        `${grown} more services after ${written} written (and at most ${unanswered} unanswered)`,
      );
    const unitCount = after.units.reduce((sum, u) => sum + u.services_count, 0);
    if (unitCount !== after.services_count)
      throw new BenchError(
        `the units' service counts add up to ${unitCount}, the fleet's is ${after.services_count}`,
      );
    return {
      ...result,
      reads_per_sec: Math.round((result.requests_per_sec / 2) * 10) / 10,
      services_written: grown,
    };
  },
};

export const benchmarks = [
  statisticsFleetMonth,
  statisticsFleetYear,
  statisticsUnitYear,
  statisticsFleetYearUncached,
  statisticsFleetYearWrites,
];
