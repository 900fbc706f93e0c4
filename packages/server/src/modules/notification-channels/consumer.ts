import {
  type ChannelEventSnapshot,
  DomainEventType,
  type FaultCodeOpenedEvent,
  fromThousandths,
  type InspectionSubmittedEvent,
  type IssueReportedEvent,
  isCriticalFaultCode,
  type NotificationChannel,
  NotificationKind,
  notificationKindOf,
  type ServiceDomainEvent,
  setupsFor,
} from '@fleetkeep/core';
import { type Insertable, type Kysely, sql } from 'kysely';
import { type AppContext, now } from '../../context.js';
import type { Database, NotificationDeliveryTable } from '../../db/schema.js';
import type { AfterCommit, DomainEventConsumer, PublishedDomainEvent } from '../../events/consumers.js';
import { parseCritical } from '../fault-codes/service.js';
import { NOTIFYING_EVENT_TYPES } from '../notifications/consumer.js';
import { inspectionDeliveriesOf } from './inspection-deliveries.js';
import { issueDeliveriesOf } from './issue-deliveries.js';
import { recipientsOf } from './mappers.js';
import { type WorkOrderChannelEvent, workOrderDeliveriesOf } from './work-order-deliveries.js';
import { deliveryWorker } from './worker.js';

/**
 * The notification channels' outbox consumer: for each service event, one pending
 * delivery per switched-on e-mail, bot and webhook set-up of the fleet whose kinds include the event's
 * kind (core `notificationKindOf`: the reminder day counts as "due", as for the in-app notifications)
 * and per recipient — each e-mail address, each bot chat; a webhook's URL is its one receiver ("once
 * per channel and recipient": nobody sees another recipient's address, and a failing one
 * is retried alone) — written in the consumer's transaction with a snapshot of the event. The delivery
 * worker sends them after the commit. Once each: the outbox hands each event over once per consumer
 * name, and the unique (channel, set-up, event, recipient) index makes a second hand-over insert nothing.
 */

export const CHANNELS_CONSUMER = 'notifications.channels';

type NewDelivery = Insertable<NotificationDeliveryTable>;

/** Rows per insert: 16 columns each, well under both dialects' bound-parameter limits. */
const INSERT_ROWS = 300;
/** Ids per `in (...)` list. */
const IN_LIST = 500;

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const OBJECT_TABLES = { u: 'units', d: 'drivers', t: 'trailers' } as const;

/** A service's line items total, each quantity × cost rounded half away from zero (as cost-days.ts). */
const product = sql<number>`(${sql.ref('qty')} * ${sql.ref('cost')})`;
const lineTotal = sql<number>`sum(case when ${product} >= 0 then (${product} + 500) / 1000 else -((500 - ${product}) / 1000) end)`;

/** The deliveries the service events of a batch make (not yet written). */
export async function deliveriesOf(
  db: Kysely<Database>,
  events: readonly ServiceDomainEvent[],
): Promise<NewDelivery[]> {
  const withKind = events
    .map((event) => ({ event, kind: notificationKindOf(event) }))
    .filter((e): e is { event: ServiceDomainEvent; kind: number } => e.kind !== null);
  if (withKind.length === 0) return [];

  const fleetIds = [...new Set(withKind.map((e) => e.event.fid))];
  const setups = await db
    .selectFrom('channel_setups')
    .select(['id', 'fleet_id', 'channel', 'name', 'enabled', 'kinds', 'config', 'created_at'])
    .where('fleet_id', 'in', fleetIds)
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  if (setups.length === 0) return [];
  const rules = setups.map((s) => ({ ...s, on: s.enabled === 1, k: s.kinds, since: Number(s.created_at) }));
  const relevant = withKind.filter(
    (e) =>
      setupsFor(
        rules.filter((s) => s.fleet_id === e.event.fid),
        e.kind,
        e.event.at,
      ).length > 0,
  );
  if (relevant.length === 0) return [];

  const fleets = new Map(
    (
      await db
        .selectFrom('fleets')
        .select(['id', 'name', 'tz', 'cur', 'ms'])
        .where('id', 'in', [...new Set(relevant.map((e) => e.event.fid))])
        .execute()
    ).map((f) => [f.id, f]),
  );
  const serviceIds = [...new Set(relevant.map((e) => e.event.serviceId))];
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
      ...new Set(relevant.filter((e) => e.event.objectType === type).map((e) => e.event.objectId)),
    ];
    for (const part of chunks(ids, IN_LIST))
      for (const o of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', part).execute())
        objectNames.set(`${type}${o.id}`, o.name);
  }

  const created = now();
  const out: NewDelivery[] = [];
  for (const { event, kind } of relevant) {
    const service = services.get(event.serviceId);
    const fleet = fleets.get(event.fid);
    // A service deleted before its event was handled, or a foreign one: nothing to say.
    if (!service || !fleet || service.fleet_id !== event.fid) continue;
    const total = lineTotals.get(event.serviceId) ?? service.manual_cost;
    const snapshot: ChannelEventSnapshot = {
      eventId: event.id,
      type: event.type,
      kind,
      at: event.at,
      fleet: { id: fleet.id, name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms },
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
    const text = JSON.stringify(snapshot);
    for (const setup of setupsFor(
      rules.filter((s) => s.fleet_id === event.fid),
      kind,
      event.at,
    ))
      for (const recipient of recipientsOf(setup))
        out.push({
          recipient,
          test: 0,
          fleet_id: event.fid,
          channel: setup.channel as NotificationChannel,
          setup_id: setup.id,
          setup_name: setup.name,
          event_id: event.id,
          kind,
          service_id: event.serviceId,
          snapshot: text,
          status: 'pending',
          attempts: 0,
          next_at: created,
          last_at: null,
          error: null,
          created_at: created,
        });
  }
  return out;
}

/**
 * The deliveries of "fault code opened" events (kind 32, critical fault code): only for a code the
 * fleet counts as critical now (its list of codes or prefixes, core fault-codes.ts), to each switched-on
 * set-up whose kinds include 32 and that existed when the code opened. The unit is the object; there is
 * no service.
 */
export async function faultDeliveriesOf(
  db: Kysely<Database>,
  events: readonly FaultCodeOpenedEvent[],
): Promise<NewDelivery[]> {
  if (events.length === 0) return [];
  const kind = NotificationKind.criticalFault;
  const fleetIds = [...new Set(events.map((e) => e.fid))];
  const fleets = new Map(
    (
      await db
        .selectFrom('fleets')
        .select(['id', 'name', 'tz', 'cur', 'ms', 'critical_fault_codes'])
        .where('id', 'in', fleetIds)
        .execute()
    ).map((f) => [f.id, { ...f, critical: parseCritical(f.critical_fault_codes) }]),
  );
  const critical = events.filter((e) => {
    const fleet = fleets.get(e.fid);
    return fleet !== undefined && isCriticalFaultCode(e.code, fleet.critical);
  });
  if (critical.length === 0) return [];
  const setups = await db
    .selectFrom('channel_setups')
    .select(['id', 'fleet_id', 'channel', 'name', 'enabled', 'kinds', 'config', 'created_at'])
    .where('fleet_id', 'in', [...new Set(critical.map((e) => e.fid))])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  if (setups.length === 0) return [];
  const rules = setups.map((s) => ({ ...s, on: s.enabled === 1, k: s.kinds, since: Number(s.created_at) }));
  const unitIds = [...new Set(critical.map((e) => e.unitId))];
  const units = new Map<number, { name: string; fleet_id: number | null }>();
  for (const part of chunks(unitIds, IN_LIST))
    for (const u of await db
      .selectFrom('units')
      .select(['id', 'name', 'fleet_id'])
      .where('id', 'in', part)
      .execute())
      units.set(u.id, u);

  const created = now();
  const out: NewDelivery[] = [];
  for (const event of critical) {
    const fleet = fleets.get(event.fid)!;
    const unit = units.get(event.unitId);
    // A unit deleted, or gone to another fleet, before its event was handled: nothing to say here.
    if (!unit || unit.fleet_id !== event.fid) continue;
    const snapshot: ChannelEventSnapshot = {
      eventId: event.id,
      type: event.type,
      kind,
      at: event.at,
      fleet: { id: fleet.id, name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms },
      service: {
        id: 0,
        name: '',
        f: 0,
        plannedDate: null,
        limitMileage: null,
        limitEngineHours: null,
        cost: null,
      },
      object: { type: 'u', id: event.unitId, name: unit.name },
      fault: { code: event.code, count: event.count, reopened: event.reopened },
    };
    const text = JSON.stringify(snapshot);
    for (const setup of setupsFor(
      rules.filter((s) => s.fleet_id === event.fid),
      kind,
      event.at,
    ))
      for (const recipient of recipientsOf(setup))
        out.push({
          recipient,
          test: 0,
          fleet_id: event.fid,
          channel: setup.channel as NotificationChannel,
          setup_id: setup.id,
          setup_name: setup.name,
          event_id: event.id,
          kind,
          service_id: null,
          snapshot: text,
          status: 'pending',
          attempts: 0,
          next_at: created,
          last_at: null,
          error: null,
          created_at: created,
        });
  }
  return out;
}

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

/** The outbox consumer of the channels (registered in server.ts). */
/** The work-order events the channels send (kinds 128 and 256). */
const WORK_ORDER_TYPES = [DomainEventType.workOrderAssigned, DomainEventType.workOrderCompleted] as const;

export function channelConsumer(ctx: AppContext): DomainEventConsumer {
  return {
    name: CHANNELS_CONSUMER,
    types: [
      ...NOTIFYING_EVENT_TYPES,
      DomainEventType.faultCodeOpened,
      DomainEventType.inspectionSubmitted,
      DomainEventType.issueReported,
      ...WORK_ORDER_TYPES,
    ],
    async handle(trx, events: PublishedDomainEvent[]): Promise<AfterCommit> {
      const faults = events.filter(
        (e) => e.type === DomainEventType.faultCodeOpened,
      ) as FaultCodeOpenedEvent[];
      const inspections = events.filter(
        (e) => e.type === DomainEventType.inspectionSubmitted,
      ) as InspectionSubmittedEvent[];
      const issues = events.filter((e) => e.type === DomainEventType.issueReported) as IssueReportedEvent[];
      const orders = events.filter((e) =>
        (WORK_ORDER_TYPES as readonly string[]).includes(e.type),
      ) as WorkOrderChannelEvent[];
      const services = events.filter(
        (e) =>
          e.type !== DomainEventType.faultCodeOpened &&
          e.type !== DomainEventType.inspectionSubmitted &&
          e.type !== DomainEventType.issueReported &&
          !(WORK_ORDER_TYPES as readonly string[]).includes(e.type),
      ) as ServiceDomainEvent[];
      const written =
        (await insertDeliveries(trx, await deliveriesOf(trx, services))) +
        (await insertDeliveries(trx, await faultDeliveriesOf(trx, faults))) +
        (await insertDeliveries(trx, await inspectionDeliveriesOf(trx, inspections))) +
        (await insertDeliveries(trx, await issueDeliveriesOf(trx, issues))) +
        (await insertDeliveries(trx, await workOrderDeliveriesOf(trx, orders)));
      return () => {
        if (written > 0) deliveryWorker(ctx).wake();
      };
    },
  };
}
