import { type LiveEvent, multiplyThousandths } from '@fleetkeep/core';
import type { AppContext } from '../context.js';
import type { ServiceRow } from '../db/schema.js';
import { lineToWire, serviceToWire } from '../modules/maintenance-wire.js';
import { NO_OWNER, ownerKey, ownerStates } from '../modules/services/owners.js';
import type { IntervalLines } from './create.js';
import { chunks } from './plan.js';

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
 * One `service` event (`c` or `u`, DESIGN §6) per service, read after the commit and published by the
 * engine's unit of work (events/unit-of-work.ts, several to a NOTIFY payload). New services (`c`) have
 * no attachments yet, and the line items the engine just wrote (`written`, by interval) need no reading
 * back.
 */
export async function serviceLiveEvents(
  ctx: AppContext,
  services: ServiceRow[],
  t: 'c' | 'u',
  written?: Map<number, IntervalLines>,
): Promise<LiveEvent[]> {
  if (services.length === 0) return [];
  const lines = await linesOf(ctx, services, written);
  const attachments = t === 'u' ? await attachmentCounts(ctx, services) : new Map<number, number>();
  const state = await ownerStates(
    ctx.db.kysely,
    services.map((s) => ({ fleetId: s.fleet_id, type: s.object_type, id: s.object_id })),
  );
  const noLines: IntervalLines = { wire: [], cost: 0 };
  return services.map((s) => {
    const own = lines.get(s.id) ?? noLines;
    return {
      t,
      s: 'service' as const,
      fid: s.fleet_id,
      d: serviceToWire(
        s,
        own.wire,
        attachments.get(s.id) ?? 0,
        state.get(ownerKey(s.object_type, s.object_id)) ?? NO_OWNER,
        own.cost,
      ),
    };
  });
}
