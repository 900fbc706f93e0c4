import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Domain events (DESIGN §6; events/outbox.ts).
 *
 * - `domain_events` is the outbox: writers insert their events in the same transaction as the change;
 *   `payload` is the whole event. The publication order: on SQLite the id (one writing transaction at a
 *   time, so rows become visible in id order); on PostgreSQL `seq`, which a publisher gives committed
 *   rows after their commit, increasing in the order they became visible. Only PostgreSQL needs the
 *   indexes on `seq` (SQLite reads by the primary key), so each insert there costs one index less.
 * - `event_consumers` holds each consumer's cursor (the last `seq` it handled), advanced in the same
 *   transaction as the consumer's own writes: each event is handled once per consumer.
 * - `service_reminders` remembers the reminder day announced per service ("notify N days before").
 */
export function domainEvents009(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('domain_events'), dialect)
        .addColumn('event_id', 'text', notNull)
        .addColumn('seq', 'bigint')
        .addColumn('type', 'text', notNull)
        .addColumn('fleet_id', 'integer', notNull)
        .addColumn('at', 'bigint', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('published_at', 'bigint')
        .addColumn('payload', 'text', notNull)
        .execute();
      if (dialect === 'postgres') {
        await db.schema.createIndex('domain_events_seq').unique().on('domain_events').column('seq').execute();
        // The publisher looks for committed rows without a number; few at any time.
        await sql`create index domain_events_pending on domain_events (id) where seq is null`.execute(db);
      }

      await db.schema
        .createTable('event_consumers')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('last_seq', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();

      await db.schema
        .createTable('service_reminders')
        .addColumn('service_id', 'integer', (c) =>
          c.primaryKey().references('services.id').onDelete('cascade'),
        )
        .addColumn('day', 'bigint', notNull)
        .execute();
      // The reminder sweep reads the services with "notify N days before" (only Due ones keep it).
      await sql`create index services_notify on services (id) where notify_days is not null`.execute(db);
    },
  };
}
