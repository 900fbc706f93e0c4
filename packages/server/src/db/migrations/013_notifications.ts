import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * In-app notifications (and the in-app set-ups of item 2; modules/notifications).
 *
 * - `notification_setups`: a fleet's in-app set-ups: name, switched on, kinds (bit mask 1..31) and the
 *   users addressed (JSON list of ids; empty: every member).
 * - `notifications`: one row per event and user (spec §3 server record: id, uid, sid, et, d, ivid, tm,
 *   stm). `event_id` is the domain event's UUID, unique per user (spec §4 "Each event id is notified
 *   once only"), which also makes a second delivery of the same event insert nothing. `stm` is null
 *   while unread. `data` is JSON: the service's flags after the change, its name and its object's
 *   name, as they were when the notification was made. A notification goes with its user, its service
 *   and its fleet; a test notification names no service.
 */
export function notifications013(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('notification_setups'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        .addColumn('enabled', 'integer', notNull)
        .addColumn('kinds', 'integer', notNull)
        .addColumn('users', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('notification_setups_fleet')
        .on('notification_setups')
        .column('fleet_id')
        .execute();

      await idColumn(db.schema.createTable('notifications'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event_id', 'text', notNull)
        .addColumn('setup_id', 'integer', (c) => c.references('notification_setups.id').onDelete('set null'))
        .addColumn('kind', 'integer', notNull)
        .addColumn('service_id', 'integer', (c) => c.references('services.id').onDelete('cascade'))
        .addColumn('object_type', 'text')
        .addColumn('object_id', 'integer')
        .addColumn('interval_id', 'integer')
        .addColumn('data', 'text', notNull)
        .addColumn('tm', 'bigint', notNull)
        .addColumn('stm', 'bigint')
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('notifications_event_user')
        .unique()
        .on('notifications')
        .columns(['event_id', 'user_id'])
        .execute();
      // The bell reads a user's notifications in one fleet, newest first.
      await db.schema
        .createIndex('notifications_user_fleet_tm')
        .on('notifications')
        .columns(['user_id', 'fleet_id', 'tm'])
        .execute();
      // Deleting a service or a set-up finds its notifications (the foreign keys' cascade and set null).
      await sql`create index notifications_service on notifications (service_id) where service_id is not null`.execute(
        db,
      );
      await sql`create index notifications_setup on notifications (setup_id) where setup_id is not null`.execute(
        db,
      );
    },
  };
}
