import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Notification channels (modules/notification-channels): e-mail, messaging bot and
 * external server set-ups of a fleet, and their delivery queue and log.
 *
 * - `channel_setups`: one row per set-up; `channel` is 'mail', 'bot' or 'webhook'; `lang` the language
 *   of the texts (null for webhooks); `config` JSON (mail `{recipients}`, bot `{url, chats}`, webhook
 *   `{url}`); `secret` the bot token or webhook signing secret (write-only on the wire), null when none.
 * - `notification_deliveries`: one row per (channel, set-up, event) — the unique index makes a second
 *   hand-over of the same event insert nothing, so an event is delivered once per set-up, across
 *   instances and restarts. `status` 'pending' | 'sent' | 'failed'; a pending row is due at `next_at`;
 *   claiming it pushes `next_at` by the lease, so a crash mid-send retries it later. `snapshot` is the
 *   event as the consumer saw it (JSON, core `ChannelEventSnapshot`). `setup_name` keeps the name for
 *   the log after the set-up is deleted. Deliveries go with their fleet.
 */
export function notificationChannels014(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('channel_setups'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('channel', 'text', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('enabled', 'integer', notNull)
        .addColumn('kinds', 'integer', notNull)
        .addColumn('lang', 'text')
        .addColumn('config', 'text', notNull)
        .addColumn('secret', 'text')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('channel_setups_fleet')
        .on('channel_setups')
        .columns(['fleet_id', 'channel'])
        .execute();

      await idColumn(db.schema.createTable('notification_deliveries'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('channel', 'text', notNull)
        .addColumn('setup_id', 'integer', notNull)
        .addColumn('setup_name', 'text', notNull)
        .addColumn('event_id', 'text', notNull)
        .addColumn('kind', 'integer', notNull)
        .addColumn('service_id', 'integer')
        .addColumn('snapshot', 'text', notNull)
        .addColumn('status', 'text', notNull)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint')
        .addColumn('last_at', 'bigint')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('notification_deliveries_once')
        .unique()
        .on('notification_deliveries')
        .columns(['channel', 'setup_id', 'event_id'])
        .execute();
      // The worker claims pending deliveries by due time.
      await db.schema
        .createIndex('notification_deliveries_due')
        .on('notification_deliveries')
        .columns(['status', 'next_at'])
        .execute();
      // The log reads a fleet's deliveries newest first.
      await db.schema
        .createIndex('notification_deliveries_fleet')
        .on('notification_deliveries')
        .columns(['fleet_id', 'id'])
        .execute();
    },
  };
}
