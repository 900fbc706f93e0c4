import type { Kysely, Migration } from 'kysely';

/**
 * Deactivated users: `users.active` 1 by default, 0 refuses the user's login and
 * sessions (modules/session/service.ts) while keeping the user and their history.
 */
export function userActive010(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  };
}
