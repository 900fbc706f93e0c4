import { multiplyThousandths } from '@fleetkeep/core';
import type { AppContext } from '../context.js';
import type { ServiceRow } from '../db/schema.js';
import { lineToWire, type OwnerState, serviceToWire } from '../modules/maintenance-wire.js';
import type { IntervalLines } from './create.js';
import { chunks } from './plan.js';

/**
 * Events per `publishMany`: one statement on PostgreSQL (`pg_notify` over an array, in order) instead of
 * one round trip per event; bounded so that no single statement carries megabytes.
 */
const PUBLISH_BATCH = 500;

const ownerKey = (type: string, id: number) => `${type}:${id}`;

/** The wire state of each service's owner: counters for units, the in-progress marker for all. */
async function owners(ctx: AppContext, services: ServiceRow[]): Promise<Map<string, OwnerState>> {
  const db = ctx.db.kysely;
  const out = new Map<string, OwnerState>();
  const ids = (type: string) => [
    ...new Set(services.filter((s) => s.object_type === type).map((s) => s.object_id)),
  ];
  for (const part of chunks(ids('u'))) {
    const rows = await db
      .selectFrom('units')
      .select(['id', 'mileage', 'engine_hours', 'ins'])
      .where('id', 'in', part)
      .execute();
    for (const r of rows)
      out.set(ownerKey('u', r.id), { mileage: r.mileage, engineHours: r.engine_hours, ins: r.ins });
  }
  for (const [type, table] of [
    ['d', 'drivers'],
    ['t', 'trailers'],
  ] as const) {
    for (const part of chunks(ids(type))) {
      const rows = await db.selectFrom(table).select(['id', 'ins']).where('id', 'in', part).execute();
      for (const r of rows) out.set(ownerKey(type, r.id), { mileage: null, engineHours: null, ins: r.ins });
    }
  }
  return out;
}

/** Each service's line items and their stored cost: as the engine wrote them, or read back. */
async function linesOf(
  ctx: AppContext,
  services: ServiceRow[],
  written: Map<number, IntervalLines> | undefined,
): Promise<Map<number, IntervalLines>> {
  const out = new Map<number, IntervalLines>();
  const unknown: number[] = [];
  for (const s of services) {
    const known = s.interval_id === null ? undefined : written?.get(s.interval_id);
    if (known) out.set(s.id, known);
    else unknown.push(s.id);
  }
  for (const part of chunks(unknown)) {
    const rows = await ctx.db.kysely
      .selectFrom('service_line_items')
      .select(['service_id', 'name', 'kind', 'qty', 'cost'])
      .where('service_id', 'in', part)
      .orderBy('service_id')
      .orderBy('position')
      .execute();
    for (const r of rows) {
      const lines = out.get(r.service_id) ?? { wire: [], cost: 0 };
      lines.wire.push(lineToWire(r));
      lines.cost += multiplyThousandths(r.qty, r.cost);
      out.set(r.service_id, lines);
    }
  }
  return out;
}

/** How many attachments each service has. */
async function attachmentCounts(ctx: AppContext, services: ServiceRow[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const part of chunks(services.map((s) => s.id))) {
    const rows = await ctx.db.kysely
      .selectFrom('attachments')
      .select((eb) => ['owner_id', eb.fn.countAll<number>().as('n')])
      .where('owner_type', '=', 'service')
      .where('owner_id', 'in', part)
      .groupBy('owner_id')
      .execute();
    for (const c of rows) counts.set(c.owner_id, Number(c.n));
  }
  return counts;
}

/**
 * Publishes one `service` event (`c` or `u`, DESIGN §6) per service, after the commit. New services
 * (`c`) have no attachments yet, and the line items the engine just wrote (`written`, by interval) need
 * no reading back.
 */
export async function publishServices(
  ctx: AppContext,
  services: ServiceRow[],
  t: 'c' | 'u',
  written?: Map<number, IntervalLines>,
): Promise<void> {
  if (services.length === 0) return;
  const lines = await linesOf(ctx, services, written);
  const attachments = t === 'u' ? await attachmentCounts(ctx, services) : new Map<number, number>();
  const state = await owners(ctx, services);
  const none: OwnerState = { mileage: null, engineHours: null, ins: 0 };
  const noLines: IntervalLines = { wire: [], cost: 0 };
  for (const part of chunks(services, PUBLISH_BATCH))
    await ctx.bus.publishMany(
      part.map((s) => {
        const own = lines.get(s.id) ?? noLines;
        return {
          t,
          s: 'service' as const,
          fid: s.fleet_id,
          d: serviceToWire(
            s,
            own.wire,
            attachments.get(s.id) ?? 0,
            state.get(ownerKey(s.object_type, s.object_id)) ?? none,
            own.cost,
          ),
        };
      }),
    );
}
