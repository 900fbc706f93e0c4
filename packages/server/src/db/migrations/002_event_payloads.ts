import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Event payloads too large for a PostgreSQL NOTIFY travel through this table (events/pg-bus.ts).
 * Created by a migration, not by the bus, so that instances starting together do not race.
 */
export function eventPayloads002(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('event_payloads'), dialect)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('payload', 'text', notNull)
        .execute();
    },
  };
}
