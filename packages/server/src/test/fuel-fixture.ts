import { ACL_ALL, fillingTime } from '@fleetkeep/core';
import { accountOf, type Client, createFleet, createUnit, createUser, type TestServer } from './harness.js';

/**
 * Helpers of the fuel fillings test suites (modules/fuel): the demo fleet (zone UTC+3, km, litres) with
 * fresh units, a unit of the outsider's fleet, and a second fleet measured in miles and US gallons.
 */
export async function fuelFixture(t: TestServer) {
  const db = t.server.ctx.db.kysely;
  const fleetId = t.demo.fleetId;
  const { tz, account_id: accountId } = await db
    .selectFrom('fleets')
    .select(['tz', 'account_id'])
    .where('id', '=', fleetId)
    .executeTakeFirstOrThrow();
  let n = 0;
  return {
    db,
    fleetId,
    tz,
    accountId,
    base: `/api/fleets/${fleetId}/fuel-fillings`,
    unitBase: (unitId: number, fid = fleetId) => `/api/fleets/${fid}/units/${unitId}/fuel-fillings`,
    /** Unix seconds of fleet-zone text `YYYY-MM-DD HH:mm[:ss]`. */
    at: (text: string, zone = tz) => fillingTime(zone, text)!,
    unit(mileage = 10_000) {
      return createUnit(t, { accountId, fleetId, name: `fuel unit ${++n}`, mileage });
    },
    async foreignUnit() {
      return createUnit(t, {
        accountId: await accountOf(t, 'outsider'),
        fleetId: t.demo.otherFleetId,
        name: `foreign fuel unit ${++n}`,
      });
    },
    /** A fleet in miles and US gallons (zone UTC) with a member holding every right. */
    async gallonsFleet(): Promise<{
      fleetId: number;
      client: Client;
      base: string;
      unit(km: number): Promise<number>;
    }> {
      const id = await createFleet(t, accountId, `Gallons ${++n}`);
      await db.updateTable('fleets').set({ ms: 1, fm: 2 }).where('id', '=', id).execute();
      const name = `gallons-manager-${n}`;
      await createUser(t, { name, accountId, memberships: [{ fleetId: id, acl: ACL_ALL }] });
      return {
        fleetId: id,
        client: await t.login(name),
        base: `/api/fleets/${id}/fuel-fillings`,
        unit: (km: number) =>
          createUnit(t, { accountId, fleetId: id, name: `gallons unit ${++n}`, mileage: km }),
      };
    },
  };
}

/** The fields named by an error reply's details, sorted. */
export const issueFields = (body: any): string[] =>
  (body.details as { field: string }[]).map((d) => d.field).sort();
