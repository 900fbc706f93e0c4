import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Documents and renewals (docs/product.md "Documents"; core documents.ts and contracts/documents.ts).
 * `document_types` are the fleet-defined types with their reminder days. A document belongs to a unit,
 * trailer or driver (`owner_type` 'u', 't', 'd' with `owner_id`); `type` is the built-in type name or
 * 'custom' with `type_id`. Its periods are `document_periods` (number, valid from and to in Unix
 * seconds, cost in integer thousandths, `reminded_at` once its reminder was recorded); the document
 * carries a copy of its current period (`period_id`, `valid_from`, `valid_to`, `cost`) and `remind_at`,
 * the start of the current period's reminder window, for the lists and the reminder job.
 */
export function documents040(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('document_types'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        .addColumn('reminder_days', 'integer', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema.createIndex('document_types_fleet').on('document_types').column('fleet_id').execute();

      await idColumn(db.schema.createTable('documents'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('owner_type', 'text', notNull)
        .addColumn('owner_id', 'integer', notNull)
        .addColumn('type', 'text', notNull)
        .addColumn('type_id', 'integer', (c) => c.references('document_types.id'))
        .addColumn('number', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('issuer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('period_id', 'integer')
        .addColumn('valid_from', 'bigint')
        .addColumn('valid_to', 'bigint', notNull)
        .addColumn('cost', 'bigint')
        .addColumn('remind_at', 'bigint', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('documents_fleet_valid_to')
        .on('documents')
        .columns(['fleet_id', 'valid_to'])
        .execute();
      await db.schema
        .createIndex('documents_fleet_owner')
        .on('documents')
        .columns(['fleet_id', 'owner_type', 'owner_id'])
        .execute();
      await db.schema.createIndex('documents_remind_at').on('documents').column('remind_at').execute();

      await idColumn(db.schema.createTable('document_periods'), dialect)
        .addColumn('document_id', 'integer', (c) =>
          c.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('number', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('valid_from', 'bigint')
        .addColumn('valid_to', 'bigint', notNull)
        .addColumn('cost', 'bigint')
        .addColumn('reminded_at', 'bigint')
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('document_periods_document')
        .on('document_periods')
        .column('document_id')
        .execute();
    },
  };
}
