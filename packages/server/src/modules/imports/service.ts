import {
  checkImportRowsInSteps,
  type FieldIssue,
  type FleetNeedName,
  type ImportKind,
  type ImportPayload,
  type ImportResultReply,
  type ImportRowsBody,
  type IntervalImportRow,
  type IntervalWire,
  type IssueImportRow,
  intervalImportIssues,
  type LineItemImportRow,
  localDate,
  type RecordRefusal,
  toThousandths,
  type UnitImportRow,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { FleetRow, LineItemRow } from '../../db/schema.js';
import { batchProgress, turn } from '../../db/yield.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { AppError, conflict, invalidInput } from '../../http/errors.js';
import { createMany as createFillings } from '../fuel/batch.js';
import { importIntervals } from '../intervals/batch.js';
import { listIntervals } from '../intervals/service.js';
import { fleetObjects } from '../intervals/store.js';
import { isUniqueViolation } from '../lineitems/library.js';
import { libraryEvents } from '../lineitems/service.js';
import { createMany as createServices } from '../services/batch.js';
import { writeIssues } from './issues.js';
import { FileRefused, type ParseOptions, parseImportFile } from './parse.js';
import { importProgress } from './progress.js';
import { writeUnits } from './units.js';

/** The need of each kind's import (spec §2: manageInterval, manageService, manageFuelFilling; §6). */
export const IMPORT_NEEDS: Readonly<Record<ImportKind, FleetNeedName>> = {
  intervals: 'interval.manage',
  services: 'service.manage',
  fuelfillings: 'fuel.manage',
  lineitems: 'lineitem.manage',
  // As creating a unit (routes/fleets.ts createUnit).
  units: 'fleet.admin',
  // Issues of the past: as managing them (resolve, close).
  issues: 'issue.manage',
};

/** `POST …/import/{kind}/parse`: the file's cells, or 400 with the reason's i18n key. */
export async function parseUpload(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: ImportKind,
  body: unknown,
  options: ParseOptions,
) {
  await requireFleet(ctx, actor, fleetId, IMPORT_NEEDS[kind]);
  // The file's bytes (application/octet-stream); a JSON string body is taken as the file's text.
  const bytes = Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body) : Buffer.alloc(0);
  try {
    return await parseImportFile(bytes, options);
  } catch (e) {
    if (e instanceof FileRefused) throw invalidInput([{ field: 'body', message: e.key }], e.key);
    throw e;
  }
}

/**
 * `POST …/import/{kind}`: checks the mapped text rows with the rules the preview used (core
 * `checkImportRows`), then writes them with the kind's batch writer, in one transaction: all rows or
 * none (DESIGN §5). Every issue names the sent row (`row`) and `body.rows.{row}.{field}`; its message is
 * the i18n key of the reason.
 */
export async function importRows(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  kind: ImportKind,
  body: ImportRowsBody,
): Promise<ImportResultReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, IMPORT_NEEDS[kind]);
  const report = importProgress(ctx, actor, fleetId, body.progress);
  const total = body.rows.length;
  await report('check', 0, total);
  const db = ctx.db.kysely;
  const units = await db
    .selectFrom('units')
    .select(['id', 'name as n', 'device_id'])
    .where('fleet_id', '=', fleetId)
    .execute();
  // The units import: the unit types by name, and the fleet's device identifiers (as the preview has
  // them; one of another fleet is the writer's 409).
  const unitTypes =
    kind === 'units' ? await db.selectFrom('unit_types').select(['id', 'name as n']).execute() : [];
  const intervalNames =
    kind === 'intervals'
      ? (await db.selectFrom('intervals').select('name').where('fleet_id', '=', fleetId).execute()).map(
          (r) => r.name,
        )
      : [];
  // The issues import: the fleet's trailers by name too.
  const trailers =
    kind === 'issues'
      ? await db.selectFrom('trailers').select(['id', 'name as n']).where('fleet_id', '=', fleetId).execute()
      : [];
  const lineItems =
    kind === 'lineitems'
      ? await db
          .selectFrom('line_items')
          .select(['name as n', 'kind as t'])
          .where('fleet_id', '=', fleetId)
          .execute()
      : [];
  // In steps, with a turn of the event loop between them: 10,000 rows never hold the server.
  const check = await checkImportRowsInSteps(
    kind,
    body.rows,
    {
      dateFormat: body.date_format,
      today: localDate(fleet.tz, now()),
      units,
      trailers,
      fleetId,
      intervalNames,
      lineItems,
      unitTypes,
      deviceIds: units.map((u) => u.device_id),
      ms: fleet.ms,
    },
    async (done) => {
      await report('check', done, total);
      await turn();
    },
  );
  if (check.issues.length)
    throw invalidInput(
      check.issues.map((i) => ({ row: i.row, field: `body.rows.${i.row}.${i.field}`, message: i.key })),
    );
  const records = check.payloads.length;
  await report('write', 0, records);
  // The writers report at each of their turns (db/yield.ts); all rows are committed together.
  const ids = await batchProgress.run(
    (index) => report('write', index, records),
    () => write(ctx, actor, fleet, kind, check.payloads, (n) => report('write', n, records)),
  );
  await report('write', records, records);
  return { kind, created: ids.length, rows: total, ids };
}

async function write(
  ctx: AppContext,
  actor: Actor,
  fleet: FleetRow,
  kind: ImportKind,
  payloads: ImportPayload[],
  written: (n: number) => Promise<void>,
) {
  const data = payloads.map((p) => p.data);
  const fleetId = fleet.id;
  try {
    switch (kind) {
      case 'intervals':
        return (await importIntervals(ctx, actor, fleetId, data as IntervalImportRow[])).intervals.map(
          (i) => i.id,
        );
      case 'services':
        return (await createServices(ctx, actor, fleetId, data)).services.map((s) => s.id);
      case 'fuelfillings':
        return (await createFillings(ctx, actor, fleetId, data)).fuel_fillings.map((f) => f.id);
      case 'lineitems':
        return await writeLineItems(ctx, fleetId, data as LineItemImportRow[], written);
      case 'units':
        return await writeUnits(ctx, actor, fleet, data as UnitImportRow[]);
      case 'issues':
        return await writeIssues(ctx, actor, fleet, data as IssueImportRow[]);
    }
  } catch (e) {
    throw toSourceRows(e, payloads);
  }
}

/**
 * A writer's per-row details name its payload index; the person fixes the file's row (PRODUCT.md
 * Imports), so `row` becomes the file's row.
 */
function toSourceRows(e: unknown, payloads: ImportPayload[]): unknown {
  if (!(e instanceof AppError) || !Array.isArray(e.details)) return e;
  const sourceRow = <D extends { row?: number }>(d: D): D => {
    const source = d.row === undefined ? undefined : payloads[d.row]?.rows[0];
    return source === undefined ? d : { ...d, row: source };
  };
  const details: FieldIssue[] | RecordRefusal[] = e.details.every((d) => 'message' in d)
    ? (e.details as FieldIssue[]).map(sourceRow)
    : (e.details as RecordRefusal[]).map(sourceRow);
  return e.withDetails(details);
}

/** `GET /fleets/{id}/import` (spec §7): the fleet's intervals as rows of the interval import. */
export async function intervalImportList(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'interval.manage');
  const { intervals } = await listIntervals(ctx, actor, fleetId);
  return { intervals: intervals.map(toImportRow) };
}

function toImportRow(i: IntervalWire): IntervalImportRow {
  const { id: _id, c: _c, tm: _tm, li, u, ...rest } = i;
  return {
    ...rest,
    li: li.map((l) => ({ n: l.n, t: l.t, q: l.q, c: l.c })) as IntervalImportRow['li'],
    u: u.map((a) => ({ id: a.id, t: a.t, lcnm: a.lcnm, lceh: a.lceh, ltm: a.ltm, cnt: a.cnt })),
  };
}

/**
 * `POST /fleets/{id}/import {intervals}` (spec §7): the imported intervals. The rows are first held to the
 * rules of the preview (core `intervalImportIssues`, spec §5 "Import: intervals"): a row the preview flags
 * is refused here with the same reason (the i18n key), at `body.intervals.{row}.{path}`.
 */
export async function importIntervalRows(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  intervals: IntervalImportRow[],
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'interval.manage');
  const db = ctx.db.kysely;
  const names = await db.selectFrom('intervals').select('name').where('fleet_id', '=', fleetId).execute();
  const refs = intervals.flatMap((r) => (r.u ?? []).map((a) => ({ id: a.id, t: a.t ?? ('u' as const) })));
  const objects = new Set<string>();
  const unique = [...new Map(refs.map((r) => [`${r.t}:${r.id}`, r])).values()];
  for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
    const found = await fleetObjects(db, fleetId, unique.slice(i, i + INSERT_CHUNK), () => '');
    for (const key of found.counters.keys()) objects.add(key);
  }
  const issues = intervalImportIssues(intervals, {
    today: localDate(fleet.tz, now()),
    tz: fleet.tz,
    intervalNames: names.map((n) => n.name),
    objects,
  });
  if (issues.length)
    throw invalidInput(
      issues.map((i) => ({ row: i.row, field: `body.intervals.${i.row}.${i.path}`, message: i.key })),
    );
  return importIntervals(ctx, actor, fleetId, intervals);
}

/** Rows of one insert statement (SQLite caps the bound values of a statement). */
const INSERT_CHUNK = 1000;

/**
 * The library rows of an import (up to IMPORT_ROWS_MAX): the rules were checked by `checkImportRows`
 * (duplicates included); written in one transaction in chunks, so that all rows or none are stored.
 */
async function writeLineItems(
  ctx: AppContext,
  fleetId: number,
  rows: LineItemImportRow[],
  written: (n: number) => Promise<void>,
) {
  const at = now();
  let created: LineItemRow[];
  try {
    created = await unitOfWork(ctx, async (trx, uow) => {
      const out: LineItemRow[] = [];
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const values = rows.slice(i, i + INSERT_CHUNK).map((r) => ({
          fleet_id: fleetId,
          name: r.n,
          kind: Number(r.t),
          cost: toThousandths(r.c) ?? 0,
          created_at: at,
        }));
        out.push(...(await trx.insertInto('line_items').values(values).returningAll().execute()));
        await written(out.length);
        await turn();
      }
      uow.emit(...libraryEvents(out));
      return out;
    });
  } catch (e) {
    // A concurrent writer took a name between the check and the write.
    if (isUniqueViolation(e)) throw conflict('Some line items exist already');
    throw e;
  }
  return created.map((r) => r.id);
}
