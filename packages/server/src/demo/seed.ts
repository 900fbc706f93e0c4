import type { Transaction } from 'kysely';
import { hashPassword } from '../auth/secrets.js';
import { type AppContext, now } from '../context.js';
import type { Database } from '../db/schema.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { DEMO_HISTORY_DAYS, seedCounterHistory } from '../modules/statistics/demo-history.js';
import { seedDemoAssignments } from './assignments.js';
import {
  DEMO_CENTRE,
  DEMO_DRIVERS,
  DEMO_FLEET,
  DEMO_TRAILERS,
  DEMO_UNITS,
  DEMO_USERS,
  OTHER_FLEET,
} from './data.js';
import { seedDemoDocuments } from './documents.js';
import { seedDemoInspections } from './inspections.js';
import { seedDemoIssues } from './issues.js';
import { seedDemoMaintenance } from './maintenance.js';

/** True when the database holds no account yet: the only time the demo is seeded. */
export async function isEmpty(ctx: AppContext): Promise<boolean> {
  const row = await ctx.db.kysely.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

export interface DemoIds {
  fleetId: number;
  otherFleetId: number;
  users: Record<string, number>;
}

/** Days of counter history (and of closed services and fuel) of the full demo of `npm start`. */
export const DEMO_FULL_HISTORY_DAYS = 365;

/**
 * Seeds the demo of DESIGN §8 when the database is empty: the account tree (`seedAccounts`), then its
 * maintenance (demo/maintenance.ts: library, intervals, a year of services and fuel) through the
 * modules' service functions. Returns undefined when the database was not empty.
 */
export async function seedDemoIfEmpty(ctx: AppContext, password: string): Promise<DemoIds | undefined> {
  const ids = await seedAccounts(ctx, password, DEMO_FULL_HISTORY_DAYS);
  if (ids) await seedDemoMaintenance(ctx, ids, DEMO_FULL_HISTORY_DAYS);
  if (ids) await seedDemoInspections(ctx, ids);
  if (ids) await seedDemoIssues(ctx, ids); // demo/issues.ts
  if (ids) await seedDemoDocuments(ctx, ids); // demo/documents.ts
  return ids;
}

/**
 * Seeds the demo account tree of DESIGN §8 in one transaction: a top account with the super user,
 * the demo account with its fleet, units, drivers, trailers and users, and a second account whose
 * fleet and user show that fleets stay apart. Returns undefined when the database was not empty
 * (another instance seeded it first: on PostgreSQL the check runs under an advisory lock).
 */
async function seedAccounts(
  ctx: AppContext,
  password: string,
  historyDays: number,
): Promise<DemoIds | undefined> {
  const hash = await hashPassword(password);
  return unitOfWork(ctx, async (trx) => {
    await ctx.db.ops.lockInTransaction(trx, 'demoSeed');
    const any = await trx.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
    if (any) return undefined;
    return insertDemo(trx, hash, historyDays);
  });
}

/**
 * Seeds the demo on a database known to be empty (tests): the account tree with 90 days of counter
 * history, and with `maintenance` the full demo of `npm start`.
 */
export async function seedDemo(
  ctx: AppContext,
  password: string,
  options: { maintenance?: boolean } = {},
): Promise<DemoIds> {
  const ids = options.maintenance
    ? await seedDemoIfEmpty(ctx, password)
    : await seedAccounts(ctx, password, DEMO_HISTORY_DAYS);
  if (!ids) throw new Error('The database is not empty');
  return ids;
}

async function insertDemo(trx: Transaction<Database>, hash: string, historyDays: number): Promise<DemoIds> {
  const t = now();
  const types = new Map(
    (await trx.selectFrom('unit_types').select(['id', 'name']).execute()).map((r) => [r.name, r.id]),
  );
  const account = async (name: string, parent: number | null) =>
    (
      await trx
        .insertInto('accounts')
        .values({ name, parent_id: parent, active: 1, created_at: t })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const top = await account('Fleetkeep', null);
  const demo = await account('Demo Logistics', top);
  const other = await account('Northwind Haulage', top);
  const accounts = { top, demo, other } as const;

  const fleet = async (accountId: number, name: string) =>
    (
      await trx
        .insertInto('fleets')
        // tz: UTC offset in minutes in the low 16 bits, DST rule flags above (spec §5; core timezone.ts).
        .values({ account_id: accountId, name, tz: 180, cur: 'EUR', ms: 0, fm: 1, created_at: t })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const fleetId = await fleet(demo, DEMO_FLEET);
  const otherFleetId = await fleet(other, OTHER_FLEET);

  const users: Record<string, number> = {};
  for (const u of DEMO_USERS) {
    const fid = u.account === 'other' ? otherFleetId : u.account === 'demo' ? fleetId : null;
    const { id } = await trx
      .insertInto('users')
      .values({
        account_id: accounts[u.account],
        name: u.name,
        full_name: u.fullName,
        password_hash: hash,
        su: u.su,
        admin: u.admin,
        settings: '{}',
        fid,
        created_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    users[u.name] = id;
    if (u.acl !== null && fid !== null) {
      await trx.insertInto('fleet_users').values({ fleet_id: fid, user_id: id, acl: u.acl }).execute();
    }
  }

  const unitRows = DEMO_UNITS.map((u, i) => {
    const angle = (i / DEMO_UNITS.length) * 2 * Math.PI;
    return {
      account_id: demo,
      fleet_id: fleetId,
      name: u.name,
      device_id: `demo-${String(i + 1).padStart(3, '0')}`,
      unit_type_id: types.get(u.type) ?? null,
      mileage: u.km,
      engine_hours: u.hours,
      base_mileage: u.km,
      base_engine_hours: u.hours,
      pulled_mileage: 0,
      pulled_engine_hours: 0,
      joined_at: t,
      last_time: t,
      lat: DEMO_CENTRE.lat + 0.15 * Math.sin(angle),
      lon: DEMO_CENTRE.lon + 0.25 * Math.cos(angle),
      speed: 0,
      course: 0,
      altitude: 220,
      ignition: 0,
      props: '{}',
      params: '{}',
      cf: '[]',
      ins: 0,
      created_at: t,
    };
  });
  const otherUnits = ['Northwind Van 1', 'Northwind Van 2', 'Northwind Truck'].map((name, i) => ({
    ...unitRows[i]!,
    account_id: other,
    fleet_id: otherFleetId,
    name,
    device_id: `northwind-${i + 1}`,
    lat: 54.69 + i * 0.01,
    lon: 25.28 + i * 0.01,
  }));
  await trx
    .insertInto('units')
    .values([...unitRows, ...otherUnits])
    .execute();
  // statistics: the last days of counter history, so that the screens show real figures.
  for (const fid of [fleetId, otherFleetId]) await seedCounterHistory(trx, fid, t, historyDays);

  const person = (accountId: number, fid: number, name: string, i: number) => ({
    account_id: accountId,
    fleet_id: fid,
    name,
    ds: '',
    c: `+370 600 ${String(10000 + i * 137).slice(0, 5)}`,
    cf: '[]',
    ins: 0,
    created_at: t,
  });
  await trx
    .insertInto('drivers')
    .values([
      ...DEMO_DRIVERS.map((n, i) => person(demo, fleetId, n, i)),
      person(other, otherFleetId, 'Nora North', 99),
    ])
    .execute();
  await trx
    .insertInto('trailers')
    .values([
      ...DEMO_TRAILERS.map((n, i) => ({ ...person(demo, fleetId, n, i), c: `TR-${100 + i}` })),
      { ...person(other, otherFleetId, 'Northwind trailer', 0), c: 'NW-1' },
    ])
    .execute();
  await seedDemoAssignments(trx, { accountId: demo, fleetId, hash, users }, t);
  return { fleetId, otherFleetId, users };
}
