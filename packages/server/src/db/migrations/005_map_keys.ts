import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/** Map-provider key records that a super user configures (spec §3, DESIGN §3 `user/get_keys`). */
export function mapKeys005(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('map_keys'), dialect)
        .addColumn('provider', 'text', notNull)
        .addColumn('key', 'text', notNull)
        /** Bits: protected 1, routing 2, geocoding 4, optimization 8, tiles 16. */
        .addColumn('type', 'integer', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .execute();
    },
  };
}
