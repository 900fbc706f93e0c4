import type { Kysely, Migration } from 'kysely';

/**
 * `fleet_users.since`: when the member could first see the fleet (joined it with the view right, or
 * gained that right). Notifications of events before it are not the member's (docs/product.md
 * "Notifications of a new member"). Members from before this migration keep 0: they saw everything.
 */
export function fleetMemberSince028(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('fleet_users')
        .addColumn('since', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
