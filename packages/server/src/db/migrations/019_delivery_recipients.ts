import type { Kysely, Migration } from 'kysely';

/**
 * Deliveries per recipient, and test sends in the log ("each event delivered once per
 * channel and recipient"; modules/notification-channels):
 *
 * - `notification_deliveries.recipient`: the one e-mail address or bot chat id a delivery goes to, so
 *   that an e-mail set-up with several recipients sends each of them a message of their own (nobody
 *   sees the other addresses) and a failing address or chat is retried alone. '' for webhooks (the
 *   set-up's URL is the one receiver) and for rows written before this migration (sent to all).
 * - `notification_deliveries.test`: 1 for a "send test" logged in the delivery log (never retried).
 * - The once-only index becomes (channel, setup_id, event_id, recipient).
 */
export function deliveryRecipients019(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('notification_deliveries')
        .addColumn('recipient', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('notification_deliveries')
        .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.dropIndex('notification_deliveries_once').execute();
      await db.schema
        .createIndex('notification_deliveries_once_per_recipient')
        .unique()
        .on('notification_deliveries')
        .columns(['channel', 'setup_id', 'event_id', 'recipient'])
        .execute();
    },
  };
}
