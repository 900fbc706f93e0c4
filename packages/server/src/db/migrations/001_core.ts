import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/** Platform core (DESIGN §3): accounts, users, fleets, membership, service objects, sessions. */
export function core001(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('accounts'), dialect)
        .addColumn('name', 'text', notNull)
        .addColumn('parent_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', notNull)
        .execute();

      await idColumn(db.schema.createTable('fleets'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', notNull)
        .addColumn('tz', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cur', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fm', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', notNull)
        .execute();

      await idColumn(db.schema.createTable('users'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('full_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', notNull)
        .addColumn('su', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('fid', 'integer', (c) => c.references('fleets.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', notNull)
        .execute();

      await db.schema
        .createTable('fleet_users')
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('acl', 'integer', notNull)
        .addPrimaryKeyConstraint('fleet_users_pk', ['fleet_id', 'user_id'])
        .execute();
      await db.schema.createIndex('fleet_users_user').on('fleet_users').column('user_id').execute();

      await idColumn(db.schema.createTable('unit_types'), dialect)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .execute();

      await idColumn(db.schema.createTable('units'), dialect)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('fleet_id', 'integer', (c) => c.references('fleets.id').onDelete('set null'))
        .addColumn('name', 'text', notNull)
        .addColumn('device_id', 'text', (c) => c.notNull().unique())
        .addColumn('unit_type_id', 'integer', (c) => c.references('unit_types.id'))
        .addColumn('mileage', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('engine_hours', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('base_mileage', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('base_engine_hours', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('pulled_mileage', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('pulled_engine_hours', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('joined_at', 'bigint')
        .addColumn('last_time', 'bigint')
        .addColumn('lat', 'double precision')
        .addColumn('lon', 'double precision')
        .addColumn('speed', 'double precision')
        .addColumn('course', 'double precision')
        .addColumn('altitude', 'double precision')
        .addColumn('ignition', 'integer')
        .addColumn('props', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('cf', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('ins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema.createIndex('units_fleet').on('units').column('fleet_id').execute();
      await db.schema.createIndex('units_account').on('units').column('account_id').execute();

      for (const table of ['drivers', 'trailers']) {
        await idColumn(db.schema.createTable(table), dialect)
          .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
          .addColumn('fleet_id', 'integer', (c) => c.references('fleets.id').onDelete('set null'))
          .addColumn('name', 'text', notNull)
          .addColumn('ds', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('c', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('cf', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('ins', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', notNull)
          .execute();
        await db.schema.createIndex(`${table}_fleet`).on(table).column('fleet_id').execute();
      }

      await idColumn(db.schema.createTable('access_tokens'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', notNull)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('rights', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('last_used_at', 'bigint')
        .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('access_tokens_user')
        .on('access_tokens')
        .columns(['user_id', 'kind'])
        .execute();

      await idColumn(db.schema.createTable('sessions'), dialect)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('access_token_id', 'integer', (c) => c.references('access_tokens.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('last_seen_at', 'bigint', notNull)
        .addColumn('props', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await idColumn(db.schema.createTable('positions'), dialect)
        .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
        .addColumn('tm', 'bigint', notNull)
        .addColumn('lat', 'double precision', notNull)
        .addColumn('lon', 'double precision', notNull)
        .addColumn('speed', 'double precision')
        .addColumn('course', 'double precision')
        .addColumn('altitude', 'double precision')
        .addColumn('ignition', 'integer')
        .addColumn('mileage', 'double precision', notNull)
        .addColumn('engine_hours', 'double precision', notNull)
        .execute();
      await db.schema.createIndex('positions_unit_tm').on('positions').columns(['unit_id', 'tm']).execute();

      await idColumn(db.schema.createTable('ingest_log'), dialect)
        .addColumn('received_at', 'bigint', notNull)
        .addColumn('device_id', 'text', notNull)
        .addColumn('unit_id', 'integer', (c) => c.references('units.id').onDelete('cascade'))
        .addColumn('msg_time', 'bigint')
        .addColumn('reason', 'text', notNull)
        .addColumn('payload', 'text', notNull)
        .execute();
      await db.schema.createIndex('ingest_log_received').on('ingest_log').column('received_at').execute();

      await idColumn(db.schema.createTable('counter_corrections'), dialect)
        .addColumn('unit_id', 'integer', (c) => c.notNull().references('units.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('tm', 'bigint', notNull)
        .addColumn('field', 'text', notNull)
        .addColumn('old_value', 'double precision', notNull)
        .addColumn('new_value', 'double precision', notNull)
        .execute();

      // Case-insensitive uniqueness of login names on both dialects.
      await sql`create unique index users_name_ci on users (lower(name))`.execute(db);
    },
  };
}
