import { type IntervalImportRow, intervalRuleIssues, type RecordRefusal, startOfDay } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { LineItemRow } from '../../db/schema.js';
import { conflict, invalidInput } from '../../http/errors.js';
import type { Issue } from '../lineitems/library.js';
import { isFutureDay, parseDay } from './rules.js';
import { DEFAULTS, DUPLICATE_NAME, guardedName, runOutcome } from './service.js';
import { type Baseline, fleetObjects, saveLines, syncAssignments } from './store.js';

/**
 * POST /fleets/{fid}/intervals/batch, the intervals import (spec §5 "Import: intervals"): each object
 * must exist in the fleet, the last service date not be later than today, frequencies and last values
 * be integers (schema), the time frequency at most three digits (schema). All rows or none; every bad
 * field of every row is listed with its row.
 */
export async function importIntervals(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  rows: IntervalImportRow[],
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'interval.manage');
  const at = now();
  const today = startOfDay(fleet.tz, at);
  const issues: Issue[] = [];
  const baselines: Baseline[][] = [];
  const refs: { id: number; t: 'u' | 'd' | 't'; row: number; index: number }[] = [];
  rows.forEach((row, r) => {
    const prefix = `body.intervals.${r}`;
    for (const issue of intervalRuleIssues({ ...DEFAULTS, ...defined(row) }, prefix))
      issues.push({ ...issue, row: r });
    const list: Baseline[] = [];
    (row.u ?? []).forEach((u, i) => {
      refs.push({ id: u.id, t: u.t, row: r, index: i });
      let ltm: number | undefined;
      if (u.ltm !== undefined) {
        const parsed = parseDay(u.ltm, fleet.tz);
        if (typeof parsed === 'string')
          issues.push({ row: r, field: `${prefix}.u.${i}.ltm`, message: parsed });
        else if (isFutureDay(parsed, fleet.tz, at))
          issues.push({
            row: r,
            field: `${prefix}.u.${i}.ltm`,
            message: 'Last service date must not be later than today',
          });
        else ltm = parsed;
      }
      list.push({ id: u.id, t: u.t, lcnm: u.lcnm, lceh: u.lceh, ltm, cnt: u.cnt });
    });
    baselines.push(list);
  });
  // Objects are checked per row: the same object may be assigned to several imported intervals.
  const counters = new Map<string, { mileage: number; engineHours: number }>();
  for (let r = 0; r < rows.length; r++) {
    const mine = refs.filter((x) => x.row === r);
    const found = await fleetObjects(ctx.db.kysely, fleetId, mine, (i) => `body.intervals.${r}.u.${i}.id`);
    for (const [k, v] of found.counters) counters.set(k, v);
    issues.push(...found.issues.map((i) => ({ ...i, row: r })));
  }
  if (issues.length) throw invalidInput(issues);

  const existing = await ctx.db.kysely
    .selectFrom('intervals')
    .select('name')
    .where('fleet_id', '=', fleetId)
    .execute();
  const names = new Set(existing.map((e) => e.name.toLowerCase()));
  const duplicates: RecordRefusal[] = [];
  rows.forEach((row, r) => {
    const key = row.n.toLowerCase();
    if (names.has(key)) duplicates.push({ row: r, field: `body.intervals.${r}.n`, reason: DUPLICATE_NAME });
    names.add(key);
  });
  if (duplicates.length) throw conflict('Some intervals exist already', duplicates);

  const intervals = await guardedName(() =>
    runOutcome(ctx, async (trx) => {
      const created: number[] = [];
      const assignmentIds: number[] = [];
      const library: LineItemRow[] = [];
      for (const [r, row] of rows.entries()) {
        const made = await trx
          .insertInto('intervals')
          .values({
            ...DEFAULTS,
            ...defined(row),
            name: row.n,
            fleet_id: fleetId,
            creator_id: actor.userId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        created.push(made.id);
        library.push(...(await saveLines(trx, fleetId, made.id, row.li ?? [])));
        const { ids } = await syncAssignments(trx, fleetId, made.id, baselines[r] ?? [], counters, today);
        assignmentIds.push(...ids);
      }
      return {
        fleetId,
        changed: created.map((id) => ({ t: 'c' as const, id })),
        library,
        droppedServices: [],
        assignmentIds,
      };
    }),
  );
  return { intervals };
}

function defined(row: IntervalImportRow) {
  const { n: _n, li: _li, u: _u, ...rest } = row;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Partial<
    typeof DEFAULTS
  >;
}
