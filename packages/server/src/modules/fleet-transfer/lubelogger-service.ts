import {
  LUBELOGGER_KINDS,
  LUBELOGGER_PREVIEW_ROWS,
  type LubeLoggerCommitBody,
  type LubeLoggerCommitReply,
  type LubeLoggerKind,
  type LubeLoggerParseBody,
  type LubeLoggerParseReply,
} from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { invalidInput } from '../../http/errors.js';
import { dayOf } from '../services/rules.js';
import { importInto, publishImport, type UnitTarget } from './import.js';
import { kmOf, type LubeRecord, readFile, toDocument } from './lubelogger.js';
import { applyOdometers } from './lubelogger-odometer.js';

/**
 * The LubeLogger migration (PRODUCT.md "Administration": preview and result summary):
 * `.../transfer/lubelogger/parse` reads the files and answers the preview (counts per kind, the vehicles
 * with the unit of the same name, the first rows of each kind and every row in error); `.../lubelogger`
 * reads them again and imports them with the vehicle → unit mapping, all or nothing (a row in error
 * refuses the whole import, nothing half-imported).
 */

function readAll(body: LubeLoggerParseBody): LubeRecord[] {
  return body.files.flatMap((f) => readFile(f, body.date_format));
}

const money = (v: number | null) => (v === null ? null : (v / 1000).toString());

export async function parseLubeLogger(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: LubeLoggerParseBody,
): Promise<LubeLoggerParseReply> {
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const records = readAll(body);
  const units = await ctx.db.kysely
    .selectFrom('units')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleetId)
    .orderBy('id')
    .execute();
  const byName = new Map<string, number>();
  for (const u of units) if (!byName.has(u.name)) byName.set(u.name, u.id);
  const vehicles = new Map<string, number>();
  const counts = Object.fromEntries(LUBELOGGER_KINDS.map((k) => [k, 0])) as Record<LubeLoggerKind, number>;
  const shown = Object.fromEntries(LUBELOGGER_KINDS.map((k) => [k, 0])) as Record<LubeLoggerKind, number>;
  const rows: LubeLoggerParseReply['rows'] = [];
  let errors = 0;
  for (const r of records) {
    if (r.error) errors++;
    else counts[r.kind]++;
    if (!r.error || r.line > 1) vehicles.set(r.vehicle, (vehicles.get(r.vehicle) ?? 0) + (r.error ? 0 : 1));
    if (r.error || shown[r.kind]++ < LUBELOGGER_PREVIEW_ROWS)
      rows.push({
        file: r.file,
        line: r.line,
        vehicle: r.vehicle,
        kind: r.kind,
        date: r.date,
        odometer: r.odometer,
        name: r.name,
        cost: money(r.cost),
        volume: money(r.volume),
        error: r.error,
      });
  }
  return {
    vehicles: [...vehicles.entries()].map(([vehicle, n]) => ({
      vehicle,
      rows: n,
      unit: byName.get(vehicle) ?? null,
    })),
    counts,
    errors,
    rows: rows.slice(0, 2000),
  };
}

export async function commitLubeLogger(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: LubeLoggerCommitBody,
): Promise<LubeLoggerCommitReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const records = readAll(body);
  const bad = records.filter((r) => r.error);
  if (bad.length)
    throw invalidInput(
      bad.slice(0, 200).map((r) => ({ field: `body.files`, message: `${r.file}:${r.line}: ${r.error}` })),
      'Some rows cannot be imported',
    );
  const vehicles = [...new Set(records.map((r) => r.vehicle))];
  const targets = new Map<number, UnitTarget>();
  const mapping = new Map(body.vehicles.map((v) => [v.vehicle, v]));
  const unmapped = vehicles.filter((v) => !mapping.has(v));
  if (unmapped.length)
    throw invalidInput(
      unmapped.map((v) => ({ field: 'body.vehicles', message: `No unit for vehicle "${v}"` })),
    );
  vehicles.forEach((v, i) => {
    const m = mapping.get(v)!;
    targets.set(i + 1, 'unit' in m ? { unit: m.unit } : { create: m.create });
  });
  const day = (date: string) => dayOf(fleet.tz, date)!;
  const document = toDocument(records, vehicles, fleet, day, now());
  const { reply, refused } = await unitOfWork(ctx, async (trx, uow) => {
    const done = await importInto(ctx, trx, fleet, actor, document, { unitTargets: targets });
    // Odometer records of vehicles mapped to existing units go through the counter rules (a created
    // unit starts at the highest odometer of its vehicle, lubelogger.ts `toDocument`).
    let refused = 0;
    for (const [i, vehicle] of vehicles.entries()) {
      const target = targets.get(i + 1)!;
      if (!('unit' in target)) continue;
      const odometers = records
        .filter((r) => r.vehicle === vehicle && r.kind === 'odometer' && r.odometer !== null)
        .map((r) => ({
          ms: (day(r.date!) + 12 * 3600) * 1000,
          km: kmOf(fleet, r.odometer!),
          file: r.file,
          line: r.line,
        }));
      refused += await applyOdometers(done.run, target.unit, odometers);
    }
    publishImport(uow, ctx, fleet, actor, done.published);
    return { ...done, refused };
  });
  return {
    units_created: reply.created.units,
    services: reply.created.services,
    archive: reply.created.archive,
    fuel_fillings: reply.created.fuel_fillings,
    odometer: records.filter((r) => r.kind === 'odometer').length,
    odometer_refused: refused,
  };
}
