// Workshop lists (issue 29) on a fleet with 10,000 issues and 10,000 work orders, spread over the demo
// fleet's 25 units: the first page of each list in its default sort (issues: newest report first; work
// orders: newest first), and the same filtered by status, through the HTTP API as the manager against
// the ping baseline of the same run. Written straight into the server's database while it is stopped.
import { load, login, probe, requireSuccess } from './lib.mjs';

const ROWS = Number(process.env.BENCH_WORKSHOP_ROWS || 10_000);
const DEMO_UNITS = 25;
const STEP = 600; // seconds between two generated records
/** The page the lists ask for (the DataTable shows it first). */
const PAGE = 100;

const sequence = (dialect) =>
  dialect === 'postgres'
    ? `generate_series(1, ${ROWS}) as seq(n)`
    : `(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${ROWS}) select n from s) as seq`;

// Statuses in turn: a third open, a third resolved, a third closed as not a defect.
const insertIssues = (
  dialect,
  at,
) => `insert into issues (fleet_id, object_type, object_id, title, description,
    priority, status, note, reported_at, ended_at, search, created_at, updated_at)
  select 1, 'u', (n % ${DEMO_UNITS}) + 1, 'Bench issue ' || n, 'Found on the walk-around',
    (n % 4) + 1,
    case n % 3 when 0 then 'open' when 1 then 'resolved' else 'closed' end,
    case n % 3 when 2 then 'Not a defect' else '' end,
    ${at} - n * ${STEP},
    case n % 3 when 0 then null else ${at} - n * ${STEP} + 3600 end,
    'bench issue ' || n || ' found on the walk-around',
    ${at} - n * ${STEP}, ${at} - n * ${STEP}
  from ${sequence(dialect)}`;

// Statuses in turn over the five; the completed ones with their actual dates and meter.
const insertWorkOrders = (dialect, at) => `insert into work_orders (fleet_id, object_type, object_id, title,
    description, status, scheduled_start, scheduled_end, actual_start, actual_end, mileage, created_at, updated_at)
  select 1, 'u', (n % ${DEMO_UNITS}) + 1, 'Bench work order ' || n, '',
    case n % 5 when 0 then 'open' when 1 then 'in_progress' when 2 then 'on_hold' when 3 then 'completed'
      else 'cancelled' end,
    ${at} - n * ${STEP}, ${at} - n * ${STEP} + 86400,
    case when n % 5 in (1, 3) then ${at} - n * ${STEP} else null end,
    case when n % 5 = 3 then ${at} - n * ${STEP} + 7200 else null end,
    case when n % 5 = 3 then 100000 + n else null end,
    ${at} - n * ${STEP}, ${at} - n * ${STEP}
  from ${sequence(dialect)}`;

async function prepare(db) {
  const at = Math.floor(Date.now() / 1000);
  await db.exec(insertIssues(db.dialect, at));
  await db.exec(insertWorkOrders(db.dialect, at));
}

async function measure(ctx, pathOf, listKey) {
  const { fid, authorization } = await login(ctx.url, 'manager', ctx.password);
  const path = pathOf(fid);
  const body = await probe(`${ctx.url}${path}`, { headers: { authorization } });
  const result = requireSuccess(await load(ctx.url, { path, headers: { authorization }, cpuMs: ctx.cpuMs }));
  result.rows_per_reply = Array.isArray(body?.[listKey]) ? body[listKey].length : null;
  result.total = typeof body?.total === 'number' ? body.total : null;
  return result;
}

export const issuesFirstPage = {
  id: 'issues_list',
  title: `GET /api/fleets/{fid}/issues?limit=${PAGE} (first page of ${ROWS}, newest report first)`,
  prepare,
  run: (ctx) => measure(ctx, (fid) => `/api/fleets/${fid}/issues?limit=${PAGE}`, 'issues'),
};

export const issuesOpen = {
  id: 'issues_open',
  title: `GET /api/fleets/{fid}/issues?status=open&limit=${PAGE} (a third of ${ROWS} open)`,
  requires: ['issues_list'],
  run: (ctx) => measure(ctx, (fid) => `/api/fleets/${fid}/issues?status=open&limit=${PAGE}`, 'issues'),
};

export const workOrdersFirstPage = {
  id: 'work_orders_list',
  title: `GET /api/fleets/{fid}/work-orders?limit=${PAGE} (first page of ${ROWS}, newest first)`,
  requires: ['issues_list'],
  run: (ctx) => measure(ctx, (fid) => `/api/fleets/${fid}/work-orders?limit=${PAGE}`, 'work_orders'),
};

export const workOrdersActive = {
  id: 'work_orders_active',
  title: `GET /api/fleets/{fid}/work-orders?status=open,in_progress,on_hold&limit=${PAGE}`,
  requires: ['issues_list'],
  run: (ctx) =>
    measure(
      ctx,
      (fid) => `/api/fleets/${fid}/work-orders?status=open,in_progress,on_hold&limit=${PAGE}`,
      'work_orders',
    ),
};

export const benchmarks = [issuesFirstPage, issuesOpen, workOrdersFirstPage, workOrdersActive];
