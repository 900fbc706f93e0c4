import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Inspection forms and inspections (DVIR; modules/inspections, core inspections.ts):
 * - `inspection_forms`: a fleet's templates, items as JSON (kind, label, locale key, severity, required);
 *   `builtin` names the built-in DVIR (one per fleet, unique), null for a fleet's own forms;
 * - `inspections`: submitted, locked records with their own copy of the form's items and the results
 *   (JSON), the object, the meter, the signature (an attachment, owner type 'inspection') and the
 *   acknowledgement by the next inspection's driver;
 * - `inspection_defects`: one row per failed pass/fail item with its severity, the issue it opens
 *   (`issue_id`, nullable: filled once issues exist) and the mechanic's certification;
 * - `fleets.inspection_retention_months`: how long the fleet keeps inspections (at least 3; 12).
 */
export function inspections035(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('inspection_forms'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('name', 'text', notNull)
        .addColumn('builtin', 'text')
        .addColumn('items', 'text', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('inspection_forms_builtin')
        .unique()
        .on('inspection_forms')
        .columns(['fleet_id', 'builtin'])
        .execute();
      await idColumn(db.schema.createTable('inspections'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('form_id', 'integer', (c) => c.references('inspection_forms.id').onDelete('set null'))
        .addColumn('form_name', 'text', notNull)
        .addColumn('builtin', 'text')
        .addColumn('object_type', 'text', notNull)
        .addColumn('object_id', 'integer', notNull)
        .addColumn('mileage', 'double precision')
        .addColumn('engine_hours', 'double precision')
        .addColumn('note', 'text', notNull)
        .addColumn('items', 'text', notNull)
        .addColumn('results', 'text', notNull)
        .addColumn('signature_id', 'integer')
        .addColumn('submitted_at', 'bigint', notNull)
        .addColumn('submitter_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('defects', 'integer', notNull)
        .addColumn('ack_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('ack_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('inspections_fleet_time')
        .on('inspections')
        .columns(['fleet_id', 'submitted_at'])
        .execute();
      await db.schema
        .createIndex('inspections_object_time')
        .on('inspections')
        .columns(['object_type', 'object_id', 'submitted_at'])
        .execute();
      await idColumn(db.schema.createTable('inspection_defects'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('inspection_id', 'integer', (c) =>
          c.notNull().references('inspections.id').onDelete('cascade'),
        )
        .addColumn('item', 'integer', notNull)
        .addColumn('severity', 'text', notNull)
        .addColumn('issue_id', 'integer')
        .addColumn('cert', 'text')
        .addColumn('cert_note', 'text', notNull)
        .addColumn('cert_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('cert_at', 'bigint')
        .addColumn('cert_signature_id', 'integer')
        .execute();
      await db.schema
        .createIndex('inspection_defects_inspection')
        .on('inspection_defects')
        .column('inspection_id')
        .execute();
      await db.schema
        .alterTable('fleets')
        .addColumn('inspection_retention_months', 'integer', (c) => c.notNull().defaultTo(12))
        .execute();
    },
  };
}
