// Statistics reads (spec §7 "Fleet" statistics; DESIGN §9 "dashboard and report aggregation") on a
// generated fleet of 10,000 units with 365 days of counter history each (3.65 million counter_days
// rows) and 20,000 closed services (half with a hand-entered total, half with two line items) over the
// year. The fleet is a fleet of its own in the demo account, shared with the demo fleet's members, so
// that the other benchmarks keep their data sets. Written straight into the database while the server
// is stopped (`prepare`); the reads go through the HTTP API as the manager, against the ping baseline.
import { BenchError, load, login, probe, requireSuccess } from './lib.mjs';

const UNITS = Number(process.env.BENCH_STAT_UNITS || 10_000);
const DAYS = 365;
const SERVICES = 2 * UNITS;
const FLEET = 'Bench statistics';
const TZ = 180; // UTC+3 without daylight saving, like the demo fleet
const DAY = 86_400;

let today = 0;

/** `n` from 1 to `count` as a table expression of the dialect. */
const series = (dialect, count, alias) =>
  dialect === 'postgres'
    ? `generate_series(1, ${count}) as ${alias}(n)`
    : `(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${count}) select n from s) as ${alias}`;

async function prepare(db) {
  const now = Math.floor(Date.now() / 1000);
  // Start of today in the fleet zone (no daylight saving at UTC+3).
  today = Math.floor((now + TZ * 60) / DAY) * DAY - TZ * 60;
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
  // PostgreSQL plans on statistics that autovacuum gathers soon after a bulk load; gather them now.
  if (db.dialect === 'postgres') await db.exec('analyze units; analyze counter_days; analyze services');
}

const day = (t) => new Date((t + TZ * 60) * 1000).toISOString().slice(0, 10);

async function measure(ctx, pathOf, check) {
  const { authorization } = await login(ctx.url, 'manager', ctx.password);
  const { fleets } = await probe(`${ctx.url}/api/fleets`, { headers: { authorization } });
  const fleet = fleets.find((f) => f.n === FLEET);
  if (!fleet) throw new BenchError(`the generated fleet '${FLEET}' is missing`);
  const path = await pathOf(fleet.id, authorization);
  const body = await probe(`${ctx.url}${path}`, { headers: { authorization } });
  const figures = check(body);
  const result = requireSuccess(await load(ctx.url, { path, headers: { authorization } }));
  return { ...result, ...figures };
}

function fleetFigures(body) {
  if (!Array.isArray(body?.units))
    throw new BenchError(`no unit rows: ${JSON.stringify(body).slice(0, 200)}`);
  if (body.units.length !== UNITS) throw new BenchError(`${body.units.length} unit rows, expected ${UNITS}`);
  if (!(body.mileage > 0) || !(body.services_cost > 0))
    throw new BenchError(`empty totals: ${JSON.stringify({ ...body, units: undefined })}`);
  return {
    units_per_reply: body.units.length,
    reply_bytes: JSON.stringify(body).length,
    fleet_mileage: body.mileage,
    fleet_services_cost: body.services_cost,
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
  title: `GET /api/fleets/{fid}/statistics (365 days, ${UNITS} units)`,
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
        return { unit_mileage: body.mileage, unit_services_cost: body.services_cost };
      },
    ),
};

export const benchmarks = [statisticsFleetMonth, statisticsFleetYear, statisticsUnitYear];
