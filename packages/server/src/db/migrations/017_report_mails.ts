import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { idColumn, notNull } from './types.js';

/**
 * Report mails (modules/reportmails; decisions in core contracts/reportmails.ts).
 *
 * - `report_mails`: one row per report mail of a fleet. `recipients` and `ids` are JSON text; `monthday`
 *   is text ('1' … '28' or 'last'); `owner_id` the user whose rights a scheduled send uses; `next_due`
 *   the next scheduled slot (Unix seconds, null while switched off); `last_sent`, `last_ok`,
 *   `last_result` the last send (scheduled or "send now").
 * - `report_mail_sends`: the send log. A scheduled send inserts its row (`slot` = the schedule's due
 *   time, `state` 'sending') and advances the mail's `next_due` in one committed transaction before the
 *   mail goes to SMTP; the unique index on (mail_id, slot) refuses a second row for the same slot, so a
 *   slot is sent at most once even if two instances race. `state` then becomes 'sent' or 'failed'; a row
 *   left 'sending' longer than the lease (a killed process) is marked 'interrupted' and never re-sent.
 *   "Send now" rows have `slot` null (no unique conflict among them). Both go with their fleet.
 */
export function reportMails017(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await idColumn(db.schema.createTable('report_mails'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('owner_id', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('enabled', 'integer', notNull)
        .addColumn('recipients', 'text', notNull)
        .addColumn('report', 'text', notNull)
        .addColumn('grouping', 'text', notNull)
        .addColumn('ot', 'text')
        .addColumn('ids', 'text', notNull)
        .addColumn('format', 'text', notNull)
        .addColumn('every', 'text', notNull)
        .addColumn('weekday', 'integer', notNull)
        .addColumn('monthday', 'text', notNull)
        .addColumn('hour', 'integer', notNull)
        .addColumn('lang', 'text', notNull)
        .addColumn('next_due', 'bigint')
        .addColumn('last_sent', 'bigint')
        .addColumn('last_ok', 'integer')
        .addColumn('last_result', 'text')
        .addColumn('created_at', 'bigint', notNull)
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
      await db.schema.createIndex('report_mails_fleet').on('report_mails').columns(['fleet_id']).execute();
      // The scheduler looks for switched-on mails by due time.
      await db.schema
        .createIndex('report_mails_due')
        .on('report_mails')
        .columns(['enabled', 'next_due'])
        .execute();

      await idColumn(db.schema.createTable('report_mail_sends'), dialect)
        .addColumn('fleet_id', 'integer', (c) => c.notNull().references('fleets.id').onDelete('cascade'))
        .addColumn('mail_id', 'integer', (c) => c.notNull().references('report_mails.id').onDelete('cascade'))
        .addColumn('slot', 'bigint')
        .addColumn('state', 'text', notNull)
        .addColumn('started_at', 'bigint', notNull)
        .addColumn('finished_at', 'bigint')
        .addColumn('result', 'text')
        .execute();
      await db.schema
        .createIndex('report_mail_sends_once')
        .unique()
        .on('report_mail_sends')
        .columns(['mail_id', 'slot'])
        .execute();
      // The start-up sweep finds sends left 'sending'.
      await db.schema
        .createIndex('report_mail_sends_state')
        .on('report_mail_sends')
        .columns(['state', 'started_at'])
        .execute();
    },
  };
}
