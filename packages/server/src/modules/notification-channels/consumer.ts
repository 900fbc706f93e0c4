import {
  type ComponentTreadLowEvent,
  type DocumentExpiringEvent,
  DomainEventType,
  type FaultCodeOpenedEvent,
  fromThousandths,
  type InspectionSubmittedEvent,
  type IssueReportedEvent,
  isCriticalFaultCode,
  NotificationKind,
  notificationKindOf,
  type PartLowStockEvent,
  type ServiceDomainEvent,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { chunks, IN_LIST } from '../../db/lookups.js';
import type { Database } from '../../db/schema.js';
import type { AfterCommit, DomainEventConsumer, PublishedDomainEvent } from '../../events/consumers.js';
import { parseCritical } from '../fault-codes/service.js';
import { NOTIFYING_EVENT_TYPES } from '../notifications/consumer.js';
import { treadLowKind } from './component-deliveries.js';
import { type ChannelEvent, type ChannelKind, channelDeliveries, type NewDelivery } from './deliveries.js';
import { documentExpiringKind } from './document-deliveries.js';
import { inspectionFailedKind } from './inspection-deliveries.js';
import { issueReportedKind } from './issue-deliveries.js';
import { lowStockKind } from './part-deliveries.js';
import { type WorkOrderChannelEvent, workOrderKind } from './work-order-deliveries.js';
import { deliveryWorker } from './worker.js';

/**
 * The notification channels' outbox consumer: each event of a batch goes to the descriptor of its kind
 * (`deliveries.ts` `channelDeliveries`), which makes one pending delivery per switched-on e-mail, bot
 * and webhook set-up that wants it and per recipient — each e-mail address, each bot chat; a webhook's
 * URL is its one receiver ("once per channel and recipient": nobody sees another recipient's address,
 * and a failing one is retried alone) — written in the consumer's transaction with a snapshot of the
 * event. The delivery worker sends them after the commit. Once each: the outbox hands each event over
 * once per consumer name, and the unique (channel, set-up, event, recipient) index makes a second
 * hand-over insert nothing.
 */

export const CHANNELS_CONSUMER = 'notifications.channels';

/** Rows per insert: 16 columns each, well under both dialects' bound-parameter limits. */
const INSERT_ROWS = 300;

const OBJECT_TABLES = { u: 'units', d: 'drivers', t: 'trailers' } as const;

/** A service's line items total, each quantity × cost rounded half away from zero (as cost-days.ts). */
const product = sql<number>`(${sql.ref('qty')} * ${sql.ref('cost')})`;
const lineTotal = sql<number>`sum(case when ${product} >= 0 then (${product} + 500) / 1000 else -((500 - ${product}) / 1000) end)`;

/**
 * Service events on the channels (spec §5 kinds 1…16; core `notificationKindOf`: the reminder day counts
 * as "due"). Batches can be large (the status engine's sweeps), so the services, their line totals and
 * the objects' names are loaded together.
 */
const serviceKind: ChannelKind<ServiceDomainEvent> = {
  kindOf: (event) => notificationKindOf(event),
  async describe(db, events) {
    const serviceIds = [...new Set(events.map((e) => e.event.serviceId))];
    const services = new Map<
      number,
      {
        fleet_id: number;
        name: string;
        planned_date: number | null;
        limit_mileage: number | null;
        limit_engine_hours: number | null;
        manual_cost: number | null;
      }
    >();
    const lineTotals = new Map<number, number>();
    for (const ids of chunks(serviceIds, IN_LIST)) {
      for (const s of await db
        .selectFrom('services')
        .select([
          'id',
          'fleet_id',
          'name',
          'planned_date',
          'limit_mileage',
          'limit_engine_hours',
          'manual_cost',
        ])
        .where('id', 'in', ids)
        .execute())
        services.set(s.id, s);
      for (const l of await db
        .selectFrom('service_line_items')
        .select(['service_id', sql<number>`cast(${lineTotal} as bigint)`.as('total')])
        .where('service_id', 'in', ids)
        .groupBy('service_id')
        .execute())
        lineTotals.set(l.service_id, Number(l.total));
    }
    const objectNames = new Map<string, string>();
    for (const [type, table] of Object.entries(OBJECT_TABLES)) {
      const ids = [
        ...new Set(events.filter((e) => e.event.objectType === type).map((e) => e.event.objectId)),
      ];
      for (const part of chunks(ids, IN_LIST))
        for (const o of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', part).execute())
          objectNames.set(`${type}${o.id}`, o.name);
    }
    return events.map(({ event }) => {
      const service = services.get(event.serviceId);
      // A service deleted before its event was handled, or a foreign one: nothing to say.
      if (!service || service.fleet_id !== event.fid) return undefined;
      const total = lineTotals.get(event.serviceId) ?? service.manual_cost;
      return {
        serviceId: event.serviceId,
        service: {
          id: event.serviceId,
          name: service.name,
          f: event.f,
          plannedDate: service.planned_date === null ? null : Number(service.planned_date),
          limitMileage: service.limit_mileage === null ? null : Number(service.limit_mileage),
          limitEngineHours: service.limit_engine_hours === null ? null : Number(service.limit_engine_hours),
          cost: total === null || total === undefined ? null : fromThousandths(Number(total)),
        },
        object: {
          type: event.objectType,
          id: event.objectId,
          name: objectNames.get(`${event.objectType}${event.objectId}`) ?? '',
        },
      };
    });
  },
};

/** The deliveries the service events of a batch make (not yet written). */
export function deliveriesOf(
  db: Kysely<Database>,
  events: readonly ServiceDomainEvent[],
): Promise<NewDelivery[]> {
  return channelDeliveries(db, events, serviceKind);
}

/**
 * "Fault code opened" on the channels (kind 32, critical fault code): only for a code the fleet counts
 * as critical now (its list of codes or prefixes, core fault-codes.ts). The unit is the object; there is
 * no service.
 */
const faultKind: ChannelKind<FaultCodeOpenedEvent> = {
  kindOf: (event, fleet) =>
    isCriticalFaultCode(event.code, parseCritical(fleet.critical_fault_codes))
      ? NotificationKind.criticalFault
      : null,
  async describe(db, events) {
    const units = new Map<number, { name: string; fleet_id: number | null }>();
    for (const part of chunks([...new Set(events.map((e) => e.event.unitId))], IN_LIST))
      for (const u of await db
        .selectFrom('units')
        .select(['id', 'name', 'fleet_id'])
        .where('id', 'in', part)
        .execute())
        units.set(u.id, u);
    return events.map(({ event }) => {
      const unit = units.get(event.unitId);
      // A unit deleted, or gone to another fleet, before its event was handled: nothing to say here.
      if (!unit || unit.fleet_id !== event.fid) return undefined;
      return {
        object: { type: 'u' as const, id: event.unitId, name: unit.name },
        fault: { code: event.code, count: event.count, reopened: event.reopened },
      };
    });
  },
};

/** Writes deliveries, skipping any (channel, set-up, event, recipient) already there; returns how many. */
export async function insertDeliveries(db: Kysely<Database>, rows: NewDelivery[]): Promise<number> {
  let written = 0;
  for (const part of chunks(rows, INSERT_ROWS))
    written += (
      await db
        .insertInto('notification_deliveries')
        .values(part)
        .onConflict((oc) => oc.columns(['channel', 'setup_id', 'event_id', 'recipient']).doNothing())
        .returning('id')
        .execute()
    ).length;
  return written;
}

/** The work-order events the channels send (kinds 128 and 256). */
const WORK_ORDER_TYPES = [DomainEventType.workOrderAssigned, DomainEventType.workOrderCompleted] as const;

/** The events of one channel kind beyond the services', with its descriptor (deliveries.ts). */
interface KindBatch {
  types: readonly DomainEventType[];
  deliveries(trx: Kysely<Database>, events: readonly PublishedDomainEvent[]): Promise<NewDelivery[]>;
}

function kindBatch<E extends ChannelEvent>(
  types: readonly DomainEventType[],
  kind: ChannelKind<E>,
): KindBatch {
  return { types, deliveries: (trx, events) => channelDeliveries(trx, events as unknown as E[], kind) };
}

/** Every kind the channels send beside the service events (core ALL_CHANNEL_KINDS). */
const KIND_BATCHES: readonly KindBatch[] = [
  kindBatch<FaultCodeOpenedEvent>([DomainEventType.faultCodeOpened], faultKind),
  kindBatch<InspectionSubmittedEvent>([DomainEventType.inspectionSubmitted], inspectionFailedKind),
  kindBatch<IssueReportedEvent>([DomainEventType.issueReported], issueReportedKind),
  kindBatch<WorkOrderChannelEvent>(WORK_ORDER_TYPES, workOrderKind),
  kindBatch<DocumentExpiringEvent>([DomainEventType.documentExpiring], documentExpiringKind),
  kindBatch<ComponentTreadLowEvent>([DomainEventType.componentTreadLow], treadLowKind),
  kindBatch<PartLowStockEvent>([DomainEventType.partLowStock], lowStockKind),
];

/** The outbox consumer of the channels (registered in server.ts). */
export function channelConsumer(ctx: AppContext): DomainEventConsumer {
  return {
    name: CHANNELS_CONSUMER,
    types: [...NOTIFYING_EVENT_TYPES, ...KIND_BATCHES.flatMap((k) => k.types)],
    async handle(trx, events: PublishedDomainEvent[]): Promise<AfterCommit> {
      const special = new Set(KIND_BATCHES.flatMap((k) => k.types));
      // One after the other: the batches share the consumer's transaction (one connection).
      const batches = [
        ...KIND_BATCHES.map(
          (k) => () =>
            k.deliveries(
              trx,
              events.filter((e) => k.types.includes(e.type)),
            ),
        ),
        () => deliveriesOf(trx, events.filter((e) => !special.has(e.type)) as ServiceDomainEvent[]),
      ];
      let written = 0;
      for (const batch of batches) written += await insertDeliveries(trx, await batch());
      return () => {
        if (written > 0) deliveryWorker(ctx).wake();
      };
    },
  };
}
