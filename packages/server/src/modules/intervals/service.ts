import {
  INTERVAL_RULES_OFF,
  type IntervalAssignmentInput,
  type IntervalCreateBody,
  type IntervalRules,
  type IntervalUpdateBody,
  type IntervalWire,
  intervalRuleIssues,
  startOfDay,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database, IntervalRow, LineItemRow } from '../../db/schema.js';
import { recompute } from '../../engine/index.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict, invalidInput, notFound } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { type Issue, isUniqueViolation } from '../lineitems/library.js';
import { libraryEvents } from '../lineitems/service.js';
import { isFutureDay } from './rules.js';
import { dropDueServices, fleetObjects, loadIntervals, saveLines, syncAssignments } from './store.js';

/** Spec §6: the Intervals area needs viewInterval; "Interval import and editing need manageInterval". */

export const DUPLICATE_NAME = 'An interval with this name exists';

/** An interval's fields before the request fills them (every rule off). */
export const DEFAULTS: IntervalRules & { description: string } = { description: '', ...INTERVAL_RULES_OFF };

/** What a write leaves to publish after commit, then to recompute (DESIGN §6; engine/index.ts). */
export interface Outcome {
  fleetId: number;
  changed: { t: 'c' | 'u'; id: number }[];
  library: LineItemRow[];
  droppedServices: number[];
  assignmentIds: number[];
}

/**
 * Runs an interval write as one unit of work (events/unit-of-work.ts). After the commit: the library
 * items, dropped services and changed intervals as live events, then the status engine on the
 * assignments. Resolves to the changed intervals as they read after the commit.
 */
export async function runOutcome(
  ctx: AppContext,
  write: (trx: Kysely<Database>) => Promise<Outcome>,
): Promise<IntervalWire[]> {
  let wires: IntervalWire[] = [];
  await unitOfWork(ctx, async (trx, uow) => {
    const o = await write(trx);
    uow.afterCommit(async () => {
      wires = await loadIntervals(
        ctx.db.kysely,
        o.fleetId,
        o.changed.map((c) => c.id),
      );
      const intervals = o.changed.flatMap((c) => {
        const d = wires.find((w) => w.id === c.id);
        return d ? [{ t: c.t, s: 'interval', fid: o.fleetId, d } as const] : [];
      });
      return [
        ...libraryEvents(o.library),
        ...o.droppedServices.map((id) => ({ t: 'd', s: 'service', fid: o.fleetId, d: { id } }) as const),
        ...intervals,
      ];
    });
    if (o.assignmentIds.length === 0) return;
    uow.afterCommit(async () => {
      try {
        await recompute(ctx, { assignmentIds: o.assignmentIds });
      } catch (err) {
        // The change is committed; the engine is idempotent and its timer sweeps again (PRODUCT.md).
        ctx.log.error({ err }, 'recompute after an interval change failed');
      }
    });
  });
  return wires;
}

/** The one interval a write changed, as it reads after the commit. */
function theOne([wire]: IntervalWire[]): IntervalWire {
  // Only a delete racing this write leaves nothing to return.
  if (!wire) throw notFound('Interval not found');
  return wire;
}

/** Names unique in the fleet, case-insensitive (PRODUCT.md "Intervals"). */
export async function nameTaken(ctx: AppContext, fleetId: number, name: string, exceptId?: number) {
  const rows = await ctx.db.kysely
    .selectFrom('intervals')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleetId)
    .execute();
  const key = name.toLowerCase();
  return rows.some((r) => r.id !== exceptId && r.name.toLowerCase() === key);
}

/** Maps the unique index on interval names (both dialects) to error 10. */
export async function guardedName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME, [{ field: 'body.n', reason: DUPLICATE_NAME }]);
    throw err;
  }
}

/** Checks assignment entries: objects of this fleet, listed once, last date not after today. */
export async function checkAssignments(
  ctx: AppContext,
  fleet: { id: number; tz: number },
  entries: IntervalAssignmentInput[],
  prefix: string,
) {
  const { counters, issues } = await fleetObjects(
    ctx.db.kysely,
    fleet.id,
    entries,
    (i) => `${prefix}.${i}.id`,
  );
  const at = now();
  entries.forEach((e, i) => {
    if (e.ltm !== undefined && isFutureDay(e.ltm, fleet.tz, at))
      issues.push({ field: `${prefix}.${i}.ltm`, message: 'Last service date must not be later than today' });
  });
  return { counters, issues, today: startOfDay(fleet.tz, at) };
}

export async function listIntervals(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'interval.view');
  return { intervals: await loadIntervals(ctx.db.kysely, fleetId) };
}

export async function createInterval(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  input: IntervalCreateBody,
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'interval.manage');
  const fields = { ...DEFAULTS, ...stripLists(input) };
  const issues: Issue[] = intervalRuleIssues(fields, 'body');
  const checked = await checkAssignments(ctx, fleet, input.u ?? [], 'body.u');
  issues.push(...checked.issues);
  if (issues.length) throw invalidInput(issues);
  if (await nameTaken(ctx, fleetId, input.n))
    throw conflict(DUPLICATE_NAME, [{ field: 'body.n', reason: DUPLICATE_NAME }]);
  const t = now();
  const written = await guardedName(() =>
    runOutcome(ctx, async (trx) => {
      const row = await trx
        .insertInto('intervals')
        .values({
          ...fields,
          name: input.n,
          fleet_id: fleetId,
          creator_id: actor.userId,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const library = await saveLines(trx, fleetId, row.id, input.li ?? []);
      const { ids } = await syncAssignments(
        trx,
        fleetId,
        row.id,
        input.u ?? [],
        checked.counters,
        checked.today,
      );
      return {
        fleetId,
        changed: [{ t: 'c' as const, id: row.id }],
        library,
        droppedServices: [],
        assignmentIds: ids,
      };
    }),
  );
  return theOne(written);
}

function stripLists<T extends { li?: unknown; u?: unknown; n?: unknown }>(input: T) {
  const { li: _li, u: _u, n: _n, ...rest } = input;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Partial<
    IntervalRules & { description: string }
  >;
}

export async function intervalOf(ctx: AppContext, fleetId: number, intervalId: number): Promise<IntervalRow> {
  const row = await ctx.db.kysely
    .selectFrom('intervals')
    .selectAll()
    .where('id', '=', intervalId)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row) throw notFound('Interval not found');
  return row;
}

export async function updateInterval(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  intervalId: number,
  patch: IntervalUpdateBody,
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'interval.manage');
  const current = await intervalOf(ctx, fleetId, intervalId);
  // The creator stays: a different `c` is refused, not dropped.
  refuseChangedFixed(patch, { c: current.creator_id });
  const fields = { ...pickThresholds(current), ...stripLists(patch) };
  const issues: Issue[] = intervalRuleIssues(fields, 'body');
  const checked = await checkAssignments(ctx, fleet, patch.u ?? [], 'body.u');
  issues.push(...checked.issues);
  if (issues.length) throw invalidInput(issues);
  const name = patch.n ?? current.name;
  if (await nameTaken(ctx, fleetId, name, intervalId))
    throw conflict(DUPLICATE_NAME, [{ field: 'body.n', reason: DUPLICATE_NAME }]);
  const written = await guardedName(() =>
    runOutcome(ctx, async (trx) => {
      await trx
        .updateTable('intervals')
        .set({ ...fields, name, updated_at: now() })
        .where('id', '=', intervalId)
        .execute();
      const library = patch.li ? await saveLines(trx, fleetId, intervalId, patch.li) : [];
      let droppedServices: number[] = [];
      if (patch.u) {
        const { removed } = await syncAssignments(
          trx,
          fleetId,
          intervalId,
          patch.u,
          checked.counters,
          checked.today,
        );
        droppedServices = await dropDueServices(trx, fleetId, { assignmentIds: removed });
      }
      const ids = await trx
        .selectFrom('assignments')
        .select('id')
        .where('interval_id', '=', intervalId)
        .execute();
      return {
        fleetId,
        changed: [{ t: 'u' as const, id: intervalId }],
        library,
        droppedServices,
        assignmentIds: ids.map((r) => r.id),
      };
    }),
  );
  return theOne(written);
}

function pickThresholds(row: IntervalRow): IntervalRules & { description: string } {
  const { description, cnme, cnmd, cnmo, cnehe, cnehd, cneho, de, dd, du } = row;
  return { description, cnme, cnmd, cnmo, cnehe, cnehd, cneho, de, dd, du, do: row.do };
}

/**
 * DELETE: the interval with its assignments and line items (schema cascade). Its Due services go too,
 * since nothing would close them; in-progress and archived services stay with interval_id null.
 */
export async function deleteInterval(ctx: AppContext, actor: Actor, fleetId: number, intervalId: number) {
  await requireFleet(ctx, actor, fleetId, 'interval.manage');
  await intervalOf(ctx, fleetId, intervalId);
  await unitOfWork(ctx, async (trx, uow) => {
    const dropped = await dropDueServices(trx, fleetId, { intervalId });
    await trx.deleteFrom('intervals').where('id', '=', intervalId).where('fleet_id', '=', fleetId).execute();
    uow.emit(...dropped.map((id) => ({ t: 'd', s: 'service', fid: fleetId, d: { id } }) as const), {
      t: 'd',
      s: 'interval',
      fid: fleetId,
      d: { id: intervalId },
    });
  });
  return { error: 0 as const };
}
