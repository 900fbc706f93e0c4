import { ACL_DRIVER } from '@fleetkeep/core';
import type { Transaction } from 'kysely';
import { DAY } from '../context.js';
import type { Database } from '../db/schema.js';

/**
 * The demo's vehicle assignments (docs/product.md "Vehicle assignments"): the demo user `driver` (Dan
 * Driver) with the access list's driver preset (core `ACL_DRIVER`, assigned units only) drives the
 * Scania R450 now, after the Volvo FH16 #2 last month; Mike Mechanic took the DAF XF 480 for a test drive.
 * A newcomer who signs in as `driver` sees one truck.
 */
export const DEMO_DRIVER = { name: 'driver', fullName: 'Dan Driver' } as const;
export const DEMO_DRIVER_TRUCK = 'Scania R450';

export async function seedDemoAssignments(
  trx: Transaction<Database>,
  ids: { accountId: number; fleetId: number; hash: string; users: Record<string, number> },
  t: number,
): Promise<void> {
  const { id: driverId } = await trx
    .insertInto('users')
    .values({
      account_id: ids.accountId,
      name: DEMO_DRIVER.name,
      full_name: DEMO_DRIVER.fullName,
      password_hash: ids.hash,
      su: 0,
      admin: 0,
      settings: '{}',
      fid: ids.fleetId,
      created_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  ids.users[DEMO_DRIVER.name] = driverId;
  await trx
    .insertInto('fleet_users')
    .values({ fleet_id: ids.fleetId, user_id: driverId, acl: ACL_DRIVER, assigned_only: 1 })
    .execute();
  const units = new Map(
    (
      await trx
        .selectFrom('units')
        .select(['id', 'name', 'mileage', 'engine_hours'])
        .where('fleet_id', '=', ids.fleetId)
        .execute()
    ).map((u) => [u.name, u]),
  );
  const span = (
    unitName: string,
    userId: number,
    fromDays: number,
    toDays: number | null,
    kmPerDay: number,
  ) => {
    const unit = units.get(unitName)!;
    const km = (days: number) => Math.max(0, unit.mileage - kmPerDay * days);
    const hours = (days: number) => Math.max(0, unit.engine_hours - (kmPerDay / 60) * days);
    return {
      fleet_id: ids.fleetId,
      unit_id: unit.id,
      user_id: userId,
      start_at: t - fromDays * DAY,
      end_at: toDays === null ? null : t - toDays * DAY,
      start_mileage: km(fromDays),
      start_engine_hours: hours(fromDays),
      end_mileage: toDays === null ? null : km(toDays),
      end_engine_hours: toDays === null ? null : hours(toDays),
      created_at: t,
      created_by: ids.users.manager ?? null,
    };
  };
  await trx
    .insertInto('vehicle_assignments')
    .values([
      span('Volvo FH16 #2', driverId, 60, 21, 420),
      span(DEMO_DRIVER_TRUCK, driverId, 21, null, 380),
      span('DAF XF 480', ids.users.mechanic!, 10, 9, 120),
    ])
    .execute();
}
