import { dueReminder, type NewDomainEvent } from '@fleetkeep/core';
import type { AppContext } from '../context.js';
import { serviceEvents } from '../events/domain.js';
import { unitOfWork } from '../events/unit-of-work.js';
import { chunks } from './plan.js';

/**
 * The "notify N days before" reminders of Due services (PRODUCT.md "Services" and "Notifications";
 * the rule is core `dueReminder`): a `service.reminder` domain event once per service and reminder
 * day, remembered in `service_reminders`. Run by the engine's minute sweep (timer.ts; one instance at
 * a time on PostgreSQL), and safe if two ran at once: the services are locked and their reminder state
 * read again inside the writing transaction. Returns how many reminders were announced.
 */
export async function remindDue(ctx: AppContext, at: number): Promise<number> {
  const db = ctx.db.kysely;
  // Only Due services keep notify days (the services module clears them on leaving Due).
  const candidates = await db
    .selectFrom('services')
    .innerJoin('fleets', 'fleets.id', 'services.fleet_id')
    .leftJoin('service_reminders', 'service_reminders.service_id', 'services.id')
    .select([
      'services.id',
      'services.f',
      'services.planned_date',
      'services.notify_days',
      'fleets.tz',
      'service_reminders.day',
    ])
    .where('services.notify_days', 'is not', null)
    .execute();
  const tz = new Map<number, number>();
  for (const c of candidates) {
    const state = { f: c.f, plannedDate: c.planned_date, notifyDays: c.notify_days, remindedDay: c.day };
    if (dueReminder(state, c.tz, at) !== null) tz.set(c.id, c.tz);
  }
  let announced = 0;
  for (const part of chunks([...tz.keys()])) {
    announced += await unitOfWork(ctx, async (trx, uow) => {
      const services = await ctx.db.ops
        .forUpdate(trx.selectFrom('services').selectAll().where('id', 'in', part).orderBy('id'))
        .execute();
      const reminded = new Map(
        (await trx.selectFrom('service_reminders').selectAll().where('service_id', 'in', part).execute()).map(
          (r) => [r.service_id, r.day],
        ),
      );
      const rows: { service_id: number; day: number }[] = [];
      const events: NewDomainEvent[] = [];
      for (const s of services) {
        const state = {
          f: s.f,
          plannedDate: s.planned_date,
          notifyDays: s.notify_days,
          remindedDay: reminded.get(s.id) ?? null,
        };
        const day = dueReminder(state, tz.get(s.id) ?? 0, at);
        if (day === null) continue;
        rows.push({ service_id: s.id, day });
        const reminder = {
          type: 'service.reminder' as const,
          plannedDate: s.planned_date as number,
          notifyDays: s.notify_days as number,
          day,
        };
        events.push(...serviceEvents([reminder], s, at, null));
      }
      if (rows.length === 0) return 0;
      await trx
        .insertInto('service_reminders')
        .values(rows)
        .onConflict((oc) => oc.column('service_id').doUpdateSet((eb) => ({ day: eb.ref('excluded.day') })))
        .execute();
      await uow.record(events);
      return rows.length;
    });
  }
  return announced;
}
