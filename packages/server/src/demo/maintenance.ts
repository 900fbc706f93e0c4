import {
  addCalendar,
  DAYS_PER_UNIT,
  type FuelFillingCreateInput,
  type IntervalAssignmentInput,
  type LineItemLineInput,
  startOfDay,
  type UnitTypeName,
} from '@fleetkeep/core';
import { type Actor, FULL_MASK } from '../auth/actor.js';
import { type AppContext, DAY, now } from '../context.js';
import { setIntervalUnits } from '../modules/intervals/assignments.js';
import { createInterval } from '../modules/intervals/service.js';
import { batchItems } from '../modules/lineitems/service.js';
import { confirmService, createService, listServices, rejectService } from '../modules/services/service.js';
import { random } from '../modules/statistics/demo-history.js';
import {
  DEMO_FUEL,
  DEMO_INTERVALS,
  DEMO_LIBRARY,
  DEMO_REPAIRS,
  DEMO_STATIONS,
  DEMO_TARGETS,
  type DemoInterval,
  type DemoKind,
  HEAVY_TYPES,
  type TemplateLine,
} from './catalog.js';
import { seedDemoComponents } from './components.js';
import { writeFillings } from './fuel.js';
import { seedDemoParts } from './parts.js';
import { writeClosedServices } from './services.js';
import { seedDemoWorkOrders } from './work-orders.js';

/**
 * The maintenance side of the demo: a line-items library, a dozen
 * intervals with staggered baselines, a year of closed services, a few rejected and In progress ones,
 * fuel fillings every few days, and a little of the same in the outsider's fleet. Everything is written
 * through the modules' service functions as the demo users (the manager, the outsider), so the cost
 * aggregates, the statistics versions, the domain events and the status engine follow as for any
 * write; the engine's Due and Overdue services exist when this returns. Deterministic: seeded random,
 * days counted back from the fleet's today.
 */

/** Reads of the units' counter history (statistics/demo-history.ts wrote it in the seed transaction). */
interface HistoryDay {
  day: number;
  first_mileage: number;
  last_mileage: number;
  first_engine_hours: number;
  last_engine_hours: number;
}

interface DemoObject {
  t: 'u' | 'd' | 't';
  id: number;
  name: string;
  type: UnitTypeName | null;
  mileage: number;
  hours: number;
  /** The counter history, oldest first (units only). */
  days: HistoryDay[];
}

const round2 = (v: number) => Math.round(v * 100) / 100;

export async function actorOf(ctx: AppContext, name: string): Promise<Actor> {
  const u = await ctx.db.kysely
    .selectFrom('users')
    .select(['id', 'name', 'account_id', 'su', 'admin'])
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return {
    userId: u.id,
    name: u.name,
    accountId: u.account_id,
    su: Boolean(u.su),
    admin: Boolean(u.admin),
    sessionId: null,
    aclMask: FULL_MASK,
    apiTokenId: null,
  };
}

async function objectsOf(ctx: AppContext, fleetId: number): Promise<DemoObject[]> {
  const db = ctx.db.kysely;
  const units = await db
    .selectFrom('units')
    .leftJoin('unit_types', 'unit_types.id', 'units.unit_type_id')
    .select(['units.id', 'units.name', 'units.mileage', 'units.engine_hours', 'unit_types.name as type'])
    .where('units.fleet_id', '=', fleetId)
    .orderBy('units.id')
    .execute();
  const history = await db
    .selectFrom('counter_days')
    .innerJoin('units', 'units.id', 'counter_days.unit_id')
    .select([
      'counter_days.unit_id',
      'counter_days.day',
      'counter_days.first_mileage',
      'counter_days.last_mileage',
      'counter_days.first_engine_hours',
      'counter_days.last_engine_hours',
    ])
    .where('units.fleet_id', '=', fleetId)
    .orderBy('counter_days.unit_id')
    .orderBy('counter_days.day')
    .execute();
  const byUnit = new Map<number, HistoryDay[]>();
  for (const h of history) {
    const list = byUnit.get(h.unit_id) ?? [];
    list.push(h);
    byUnit.set(h.unit_id, list);
  }
  const persons = async (table: 'drivers' | 'trailers', t: 'd' | 't') =>
    (
      await db
        .selectFrom(table)
        .select(['id', 'name'])
        .where('fleet_id', '=', fleetId)
        .orderBy('id')
        .execute()
    ).map((p) => ({ t, id: p.id, name: p.name, type: null, mileage: 0, hours: 0, days: [] }));
  return [
    ...units.map((u) => ({
      t: 'u' as const,
      id: u.id,
      name: u.name,
      type: u.type as UnitTypeName | null,
      mileage: u.mileage,
      hours: u.engine_hours,
      days: byUnit.get(u.id) ?? [],
    })),
    ...(await persons('drivers', 'd')),
    ...(await persons('trailers', 't')),
  ];
}

/** Average km and hours a day over the history (the seed's history draws them from the totals). */
function ratesOf(o: DemoObject) {
  const first = o.days[0];
  const last = o.days[o.days.length - 1];
  const span = first && last ? Math.max(1, (last.day - first.day) / DAY) : 1;
  return {
    km: first && last ? Math.max(0, last.last_mileage - first.first_mileage) / span : 0,
    hours: first && last ? Math.max(0, last.last_engine_hours - first.first_engine_hours) / span : 0,
  };
}

/** The counters at the end of `day`; before the history, extrapolated back at the average rate. */
function countersAt(o: DemoObject, day: number): { mileage: number; hours: number } {
  const first = o.days[0];
  if (!first) return { mileage: o.mileage, hours: o.hours };
  if (day < first.day) {
    const back = (first.day - day) / DAY;
    const r = ratesOf(o);
    return {
      mileage: Math.max(0, first.first_mileage - r.km * back),
      hours: Math.max(0, first.first_engine_hours - r.hours * back),
    };
  }
  let found = first;
  for (const d of o.days) if (d.day <= day) found = d;
  return { mileage: found.last_mileage, hours: found.last_engine_hours };
}

/** The latest day whose counter of `kind` had not yet passed `value` (the day it was read). */
function dayOfCounter(o: DemoObject, kind: 'mileage' | 'engineHours', value: number): number {
  const pick = (d: HistoryDay) => (kind === 'mileage' ? d.first_mileage : d.first_engine_hours);
  const first = o.days[0]!;
  if (value < pick(first)) {
    const r = ratesOf(o);
    const rate = kind === 'mileage' ? r.km : r.hours;
    return first.day - Math.ceil((pick(first) - value) / Math.max(rate, 0.01)) * DAY;
  }
  let found = first.day;
  for (const d of o.days) if (pick(d) <= value) found = d.day;
  return found;
}

/** Days a full interval takes for the object, per kind (the fastest kind rules a demo's rhythm). */
function periodDays(iv: DemoInterval, o: DemoObject): { kind: DemoKind; days: number } {
  const r = ratesOf(o);
  const options: { kind: DemoKind; days: number }[] = [];
  if (iv.mileage && r.km > 0) options.push({ kind: 'mileage', days: iv.mileage.every / r.km });
  if (iv.engineHours && r.hours > 0)
    options.push({ kind: 'engineHours', days: iv.engineHours.every / r.hours });
  if (iv.days) options.push({ kind: 'days', days: iv.days.every * DAYS_PER_UNIT[iv.days.unit] });
  options.sort((a, b) => a.days - b.days);
  return options[0] ?? { kind: 'days', days: 365 };
}

function fits(iv: DemoInterval, o: DemoObject): boolean {
  const objects = iv.objects;
  if ('drivers' in objects) return o.t === 'd';
  if ('trailers' in objects) return o.t === 't';
  if (o.t !== 'u') return false;
  if (objects.units === 'road') return o.mileage > 1500;
  return o.type !== null && (objects.units ?? []).includes(o.type);
}

/** The template's lines for the object, priced from the library with a little spread. */
function linesFor(template: TemplateLine[], o: DemoObject, next: () => number): LineItemLineInput[] {
  const heavy = o.type !== null && HEAVY_TYPES.has(o.type);
  return template.map((l) => {
    const n = heavy ? (l.heavy?.n ?? l.n) : l.n;
    const q = heavy ? (l.heavy?.q ?? l.q) : l.q;
    const price = DEMO_LIBRARY.find((i) => i.n === n)?.c ?? 10;
    return { n, t: l.t, q, c: round2(price * (0.96 + 0.1 * next())) };
  });
}

interface ServiceRow {
  t: 'u' | 'd' | 't';
  uid: number;
  f: 8;
  n: string;
  ivid?: number;
  start_date: number;
  end_date: number;
  mileage?: number | null;
  engine_hours?: number | null;
  li: LineItemLineInput[];
}

/** The baseline an assignment gets and the closed services of the history that led to it. */
function plan(
  iv: DemoInterval,
  ivid: number,
  o: DemoObject,
  today: number,
  tz: number,
  historyStart: number,
  next: () => number,
): { base: IntervalAssignmentInput; history: ServiceRow[] } {
  const target = DEMO_TARGETS.find((x) => x.interval === iv.key && x.object === o.name);
  const rhythm = periodDays(iv, o);
  const kind = target?.kind ?? rhythm.kind;
  let baseDay: number;
  let base: { mileage: number; hours: number };
  if (kind === 'days' || o.t !== 'u') {
    const rule = iv.days!;
    const period = rule.every * DAYS_PER_UNIT[rule.unit];
    // Remaining days at seeding: the target's, else somewhere between a quarter and 85 % of the period.
    const r = target?.r ?? Math.round(rule.notice + (period - rule.notice) * (0.15 + 0.6 * next()));
    baseDay = startOfDay(tz, addCalendar(tz, today + r * DAY + 6 * 3600, -rule.every, rule.unit));
    base = countersAt(o, baseDay);
  } else {
    const rule = (kind === 'mileage' ? iv.mileage : iv.engineHours)!;
    const r = target?.r ?? Math.round(rule.notice + (rule.every - rule.notice) * (0.15 + 0.6 * next()));
    const current = kind === 'mileage' ? o.mileage : o.hours;
    const value = Math.max(0, current - rule.every + r);
    baseDay = Math.min(today, dayOfCounter(o, kind, value));
    base = countersAt(o, baseDay);
    if (kind === 'mileage') base.mileage = value;
    else base.hours = value;
  }
  const history: ServiceRow[] = [];
  const counters = (c: { mileage: number; hours: number }) =>
    o.t === 'u' ? { mileage: Math.round(c.mileage), engine_hours: Math.round(c.hours) } : {};
  const closed = (day: number, c: { mileage: number; hours: number }): ServiceRow => ({
    t: o.t,
    uid: o.id,
    f: 8,
    n: iv.n,
    ivid,
    start_date: day,
    end_date: day,
    ...counters(c),
    li: linesFor(iv.lines, o, next),
  });
  if (baseDay >= historyStart) history.push(closed(baseDay, base));
  // Earlier executions, one rhythm apart (a little early, as fleets do), within the history.
  for (let day = baseDay; ; ) {
    day = startOfDay(tz, day - Math.round(rhythm.days * (0.9 + 0.08 * next())) * DAY + 6 * 3600);
    if (day < historyStart) break;
    history.push(closed(day, countersAt(o, day)));
  }
  const rounded = counters(base);
  return {
    base: {
      id: o.id,
      t: o.t,
      ...(o.t === 'u' && { lcnm: rounded.mileage, lceh: rounded.engine_hours }),
      ltm: baseDay,
      cnt: history.length + 2 + Math.floor(next() * 4),
    },
    history: history.reverse(),
  };
}

/** Fuel fillings every 2–5 days, volumes from the km (or hours) driven since the previous one. */
function fuelFor(o: DemoObject, next: () => number): FuelFillingCreateInput[] {
  const fuel = o.type ? DEMO_FUEL[o.type] : undefined;
  if (!fuel || o.days.length < 2) return [];
  const rows: FuelFillingCreateInput[] = [];
  const base = fuel.type === 'Diesel' ? 1.62 : 1.74;
  let prev = o.days[0]!;
  let carried = 0;
  let gap = 2 + Math.floor(next() * 4);
  // Up to yesterday (today's row is the last): the same fillings whatever the hour of seeding.
  for (let i = 1; i < o.days.length - 1; i++) {
    const d = o.days[i]!;
    if ((d.day - prev.day) / DAY < gap) continue;
    const used = fuel.per100km
      ? ((d.last_mileage - prev.last_mileage) * fuel.per100km) / 100
      : (d.last_engine_hours - prev.last_engine_hours) * fuel.perHour!;
    const need = used * (0.95 + 0.1 * next()) + carried;
    const time = d.day + 7 * 3600 + Math.floor(next() * 11 * 3600);
    if (need < 5) continue;
    // Now and then a partial filling; the rest is topped up at the next full one.
    const full = next() < 0.12 ? 0 : 1;
    const volume = round2(full ? need : need * (0.4 + 0.3 * next()));
    carried = full ? 0 : need - volume;
    const dayIndex = (d.day - o.days[0]!.day) / DAY;
    const price = base * (1 + 0.04 * Math.sin((2 * Math.PI * dayIndex) / 61) + 0.03 * (next() - 0.5));
    rows.push({
      uid: o.id,
      date: time,
      fuel_type: fuel.type,
      volume,
      price: Math.round(price * 1000) / 1000,
      mileage: fuel.per100km ? Math.round(d.last_mileage * 10) / 10 : null,
      full: full as 0 | 1,
      station: DEMO_STATIONS[Math.floor(next() * DEMO_STATIONS.length)]!,
    });
    prev = d;
    gap = 2 + Math.floor(next() * 4);
  }
  return rows;
}

/** One-off repairs, `count` of them on random units and days of the history. */
function repairs(
  units: DemoObject[],
  count: number,
  historyStart: number,
  today: number,
  next: () => number,
) {
  const rows: ServiceRow[] = [];
  const span = Math.round((today - historyStart) / DAY);
  for (let i = 0; i < count; i++) {
    const o = units[Math.floor(next() * units.length)]!;
    const repair = DEMO_REPAIRS[Math.floor(next() * DEMO_REPAIRS.length)]!;
    const day = historyStart + Math.floor(next() * span) * DAY;
    const c = countersAt(o, day);
    rows.push({
      t: 'u',
      uid: o.id,
      f: 8,
      n: repair.n,
      start_date: day,
      end_date: day,
      mileage: Math.round(c.mileage),
      engine_hours: Math.round(c.hours),
      li: linesFor(repair.lines, o, next),
    });
  }
  return rows;
}

export interface MaintenanceSeed {
  fleetId: number;
  otherFleetId: number;
}

/** Seeds the maintenance data of both demo fleets; `historyDays` is the counter history the seed wrote. */
export async function seedDemoMaintenance(ctx: AppContext, ids: MaintenanceSeed, historyDays: number) {
  const at = now();
  const manager = await actorOf(ctx, 'manager');
  const fleet = await ctx.db.kysely
    .selectFrom('fleets')
    .select(['id', 'tz'])
    .where('id', '=', ids.fleetId)
    .executeTakeFirstOrThrow();
  const tz = fleet.tz;
  const today = startOfDay(tz, at);
  const historyStart = startOfDay(tz, today - (historyDays - 1) * DAY + 6 * 3600);
  const next = random(20_261_125);
  const objects = await objectsOf(ctx, ids.fleetId);
  const units = objects.filter((o) => o.t === 'u');

  // The line-items library (PRODUCT.md "Line-items library").
  await batchItems(
    ctx,
    manager,
    DEMO_LIBRARY.map((i) => ({ ...i, fid: ids.fleetId })),
  );

  // Intervals first without objects: the history is closed before the baselines are set, so that the
  // status engine sees the final baselines only (and its Due services get made once).
  const assignments: { ivid: number; bases: IntervalAssignmentInput[] }[] = [];
  const history: ServiceRow[] = [];
  for (const iv of DEMO_INTERVALS) {
    const wire = await createInterval(ctx, manager, ids.fleetId, {
      n: iv.n,
      description: iv.description,
      ...(iv.mileage && { cnme: 1, cnmd: iv.mileage.every, cnmo: iv.mileage.notice }),
      ...(iv.engineHours && { cnehe: 1, cnehd: iv.engineHours.every, cneho: iv.engineHours.notice }),
      ...(iv.days && { de: 1, dd: iv.days.every, du: iv.days.unit, do: iv.days.notice }),
      li: linesFor(iv.lines, { type: null } as DemoObject, () => 0.4),
    });
    const bases: IntervalAssignmentInput[] = [];
    for (const o of objects.filter((x) => fits(iv, x))) {
      const p = plan(iv, wire.id, o, today, tz, historyStart, next);
      bases.push(p.base);
      history.push(...p.history);
    }
    assignments.push({ ivid: wire.id, bases });
  }
  history.push(...repairs(units, Math.round(historyDays / 8), historyStart, today, next));
  history.sort((a, b) => a.end_date - b.end_date);
  // The closed history (demo/services.ts: a few hundred rows in one go).
  await writeClosedServices(ctx, manager, ids.fleetId, history);

  // Fuel fillings over the history, oldest first (demo/fuel.ts: a few thousand rows in one go).
  const fillings = units.flatMap((o) => fuelFor(o, next));
  fillings.sort((a, b) => (a.date as number) - (b.date as number));
  await writeFillings(ctx, manager, ids.fleetId, fillings);

  // The baselines: the status engine runs on each and makes the Due and overdue services.
  for (const a of assignments) await setIntervalUnits(ctx, manager, ids.fleetId, a.ivid, a.bases);

  // Two of the engine's Due services are being worked on; one repair is under way by hand.
  const open = (await listServices(ctx, manager, ids.fleetId, {})).services;
  for (const target of DEMO_TARGETS.filter((x) => x.confirm)) {
    const ivid = assignments[DEMO_INTERVALS.findIndex((iv) => iv.key === target.interval)]!.ivid;
    const o = objects.find((x) => x.name === target.object)!;
    const s = open.find((x) => x.ivid === ivid && x.t === o.t && x.uid === o.id);
    if (s) await confirmService(ctx, manager, ids.fleetId, s.id);
  }
  const man = units.find((o) => o.name === 'MAN TGX 18.510') ?? units[0]!;
  await createService(ctx, manager, ids.fleetId, {
    t: 'u',
    uid: man.id,
    f: 2,
    n: 'Windscreen replacement',
    start_date: today - 2 * DAY,
    li: linesFor(DEMO_REPAIRS[0]!.lines, man, next),
  });
  // A few one-off requests that were turned down.
  for (const [name, unit] of [
    ['Seat covers', 'Mercedes Sprinter'],
    ['Repaint the rear bumper', 'Skoda Octavia'],
    ['Second tyre check', 'Toyota Hilux'],
  ] as const) {
    const o = units.find((x) => x.name === unit) ?? units[0]!;
    const s = await createService(ctx, manager, ids.fleetId, { t: 'u', uid: o.id, f: 1, n: name });
    await rejectService(ctx, manager, ids.fleetId, s.id);
  }

  await seedDemoWorkOrders(ctx, manager, ids.fleetId, today);
  await seedDemoComponents(ctx, manager, ids.fleetId, today);
  await seedDemoParts(ctx, manager, ids.fleetId);
  await seedOtherFleet(ctx, ids.otherFleetId, at, Math.min(historyDays, 90), next);
}

/** The outsider's fleet: a few repairs and fuel of its own, to show that fleets stay apart. */
async function seedOtherFleet(
  ctx: AppContext,
  fleetId: number,
  at: number,
  days: number,
  next: () => number,
) {
  const outsider = await actorOf(ctx, 'outsider');
  const objects = await objectsOf(ctx, fleetId);
  const units = objects
    .filter((o) => o.t === 'u')
    .map((o) => ({ ...o, days: o.days.slice(-days), type: o.type }));
  const { tz } = await ctx.db.kysely
    .selectFrom('fleets')
    .select('tz')
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  const today = startOfDay(tz, at);
  const start = startOfDay(tz, today - (days - 1) * DAY + 6 * 3600);
  const rows = repairs(units, 4, start, today, next).sort((a, b) => a.end_date - b.end_date);
  await writeClosedServices(ctx, outsider, fleetId, rows);
  const fillings = units.flatMap((o) => fuelFor(o, next));
  fillings.sort((a, b) => (a.date as number) - (b.date as number));
  await writeFillings(ctx, outsider, fleetId, fillings);
}
