import type { DomainEvent } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { deliveryWorker } from '../modules/notification-channels/worker.js';
import { TEST_DB, type TestServer } from './harness.js';

/**
 * Helpers of the domain-event tests (events/outbox.ts): what the outbox holds, read straight from the
 * table, and a failing write made by a trigger on both dialects.
 */

/** Waits until the outbox consumers and the delivery worker have done everything due now. */
export async function deliveriesSettled(ctx: AppContext): Promise<void> {
  await ctx.outbox.publishPending();
  await ctx.outbox.consumers.drainAll();
  await deliveryWorker(ctx).drain();
}

/** The outbox's last row id: events recorded later have larger ids. */
export async function outboxMark(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('domain_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The events recorded after `mark`, in recording order, optionally of some types only. */
export async function eventsSince(
  db: Kysely<Database>,
  mark: number,
  types?: string[],
): Promise<DomainEvent[]> {
  let q = db.selectFrom('domain_events').select('payload').where('id', '>', mark).orderBy('id');
  if (types) q = q.where('type', 'in', types);
  return (await q.execute()).map((r) => JSON.parse(r.payload) as DomainEvent);
}

/**
 * A trigger that makes inserting a service named `name` fail inside the writer's transaction; the
 * returned function drops it.
 */
export async function failServiceInsertsNamed(t: TestServer, name: string): Promise<() => Promise<void>> {
  const db = t.server.ctx.db.kysely;
  if (TEST_DB === 'postgres') {
    await sql
      .raw(
        `create function fail_named_service() returns trigger language plpgsql as $$
         begin if new.name = '${name}' then raise exception 'refused by test trigger'; end if; return new; end $$`,
      )
      .execute(db);
    await sql`create trigger fail_named_service before insert on services for each row execute function fail_named_service()`.execute(
      db,
    );
    return async () => {
      await sql`drop trigger fail_named_service on services`.execute(db);
      await sql`drop function fail_named_service()`.execute(db);
    };
  }
  await sql
    .raw(
      `create trigger fail_named_service before insert on services when new.name = '${name}'
       begin select raise(abort, 'refused by test trigger'); end`,
    )
    .execute(db);
  return async () => {
    await sql`drop trigger fail_named_service`.execute(db);
  };
}
