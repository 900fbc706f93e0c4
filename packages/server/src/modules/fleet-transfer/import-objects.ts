import { invalidInput } from '../../http/errors.js';
import { UNIT_ATTACHMENT_OWNER } from '../fleets/photo.js';
import { profileColumns } from '../fleets/profile.js';
import { ensureLibraryItems } from '../lineitems/library.js';
import { type DeviceChoice, devicesOf } from './import-devices.js';
import { round3 } from './records.js';
import { cfOut, type Doc, json, objectOf, type Run } from './run.js';

/**
 * The import's objects and definitions (import.ts): what already exists in the target fleet is reused,
 * never changed; the rest is created. Every source id is mapped (`run.maps`).
 */

/** What the LubeLogger migration says about units instead of matching them by name. */
export type UnitTarget = { unit: number } | { create: string };

/** Custom fields: by owner type and name (their unique index), else created. */
export async function importFields(run: Run, doc: Doc) {
  const { trx, fleet, t } = run;
  const existing = await trx
    .selectFrom('custom_fields')
    .selectAll()
    .where('fleet_id', '=', fleet.id)
    .execute();
  const key = (owner: string, name: string) => `${owner}:${name.trim().toLowerCase()}`;
  const byKey = new Map(existing.map((f) => [key(f.owner_type, f.name), f.id]));
  for (const f of doc.custom_fields) {
    const k = key(f.owner_type, f.name);
    let target = byKey.get(k);
    if (target !== undefined) run.matched.custom_fields++;
    else {
      const row = await trx
        .insertInto('custom_fields')
        .values({
          fleet_id: fleet.id,
          name: f.name.trim(),
          type: f.type,
          options: json(f.options),
          owner_type: f.owner_type,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      target = row.id;
      byKey.set(k, target);
      run.created.custom_fields++;
      run.published.fields.push(target);
    }
    run.maps.fields.set(f.id, target);
  }
}

/** The library: names not yet in it join it (lineitems/library.ts). */
export async function importLibrary(run: Run, doc: Doc) {
  const library = await ensureLibraryItems(
    run.trx,
    run.fleet.id,
    doc.line_items.map((l) => ({ name: l.name, kind: l.kind, cost: l.cost })),
  );
  run.published.library.push(...library);
  run.created.line_items = library.length;
  run.matched.line_items = doc.line_items.length - library.length;
}

/**
 * Units: by exact name (spec §5: unit names are case-sensitive; the lowest id wins among equal names)
 * or by the LubeLogger mapping, otherwise created with the exported counters: the total ones (version 3;
 * else the actual ones) as the unit's counters, and a base at joining that gives back the exported actual
 * ones, so that interval baselines, services and the meter history (all on the total scale) read as
 * they did. The device identifier is the importer's choice (import-devices.ts).
 */
export async function importUnits(
  run: Run,
  doc: Doc,
  targets?: Map<number, UnitTarget>,
  devices?: DeviceChoice,
) {
  const { trx, fleet, t } = run;
  const fleetUnits = await trx
    .selectFrom('units')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleet.id)
    .orderBy('id')
    .execute();
  const byName = new Map<string, number>();
  for (const u of fleetUnits) if (!byName.has(u.name)) byName.set(u.name, u.id);
  const fleetUnitIds = new Set(fleetUnits.map((u) => u.id));
  const knownTypes = new Set((await trx.selectFrom('unit_types').select('id').execute()).map((r) => r.id));
  // A created unit joins the fleet no later than its first imported hand correction: the meter history
  // lists a unit's corrections since it joined its fleet (modules/meter).
  const firstCorrection = new Map<number, number>();
  for (const c of doc.counter_corrections)
    firstCorrection.set(c.unit_id, Math.min(firstCorrection.get(c.unit_id) ?? t, c.tm));
  const matched = new Map<number, number>();
  const created: number[] = [];
  for (const [i, u] of doc.units.entries()) {
    const target = targets?.get(u.id);
    let unitId: number | undefined;
    if (target && 'unit' in target) {
      if (!fleetUnitIds.has(target.unit))
        throw invalidInput([{ field: `body.vehicles.${i}.unit`, message: 'Unknown unit' }]);
      unitId = target.unit;
    } else if (!target) unitId = byName.get(u.name);
    if (unitId === undefined) created.push(i);
    else matched.set(i, unitId);
  }
  const deviceOf = await devicesOf(trx, doc, created, devices);
  for (const [i, u] of doc.units.entries()) {
    let unitId = matched.get(i);
    if (unitId !== undefined) {
      run.matched.units++;
      run.existingUnits.add(unitId);
    } else {
      const target = targets?.get(u.id);
      const counters = joinedCounters(u);
      const row = await trx
        .insertInto('units')
        .values({
          account_id: fleet.account_id,
          fleet_id: fleet.id,
          name: target && 'create' in target ? target.create : u.name,
          device_id: deviceOf.get(i)!,
          unit_type_id: u.unit_type_id !== null && knownTypes.has(u.unit_type_id) ? u.unit_type_id : null,
          ...counters,
          joined_at: firstCorrection.get(u.id) ?? t,
          last_time: null,
          lat: null,
          lon: null,
          speed: null,
          course: null,
          altitude: null,
          ignition: null,
          props: '{}',
          params: '{}',
          cf: cfOut(run, u.cf),
          ins: 0,
          created_at: t,
          // The vehicle profile (version 4; docs/product.md "The vehicle profile").
          ...profileColumns(u.vp, fleet.fm),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      unitId = row.id;
      await importUnitPhoto(run, unitId, u.attachments);
      run.created.units++;
      run.published.units.push(unitId);
    }
    run.maps.units.set(u.id, unitId);
  }
}

/**
 * A created unit's counters: total T (the document's total, else its actual A) and the base at joining
 * and pulled history that make actual = T − base + pulled equal A, neither below zero (PRODUCT.md
 * "Service objects and counters").
 */
export function joinedCounters(u: Doc['units'][number]) {
  const split = (actual: number, total: number | undefined) => {
    const t = total ?? actual;
    return { total: t, base: round3(Math.max(0, t - actual)), pulled: round3(Math.max(0, actual - t)) };
  };
  const km = split(u.mileage, u.total_mileage);
  const hours = split(u.engine_hours, u.total_engine_hours);
  return {
    mileage: km.total,
    engine_hours: hours.total,
    base_mileage: km.base,
    base_engine_hours: hours.base,
    pulled_mileage: km.pulled,
    pulled_engine_hours: hours.pulled,
  };
}

/** Drivers and trailers: by exact name, else created. */
export async function importPersons(run: Run, doc: Doc) {
  const { trx, fleet, t } = run;
  for (const [type, table, key] of [
    ['d', 'drivers', 'drivers'],
    ['t', 'trailers', 'trailers'],
  ] as const) {
    const existing = await trx
      .selectFrom(table)
      .select(['id', 'name'])
      .where('fleet_id', '=', fleet.id)
      .orderBy('id')
      .execute();
    const byName = new Map<string, number>();
    for (const p of existing) if (!byName.has(p.name)) byName.set(p.name, p.id);
    for (const p of doc[key]) {
      let target = byName.get(p.name);
      if (target !== undefined) run.matched[key]++;
      else {
        const row = await trx
          .insertInto(table)
          .values({
            account_id: fleet.account_id,
            fleet_id: fleet.id,
            name: p.name,
            ds: p.ds,
            c: p.c,
            cf: cfOut(run, p.cf),
            ins: 0,
            created_at: t,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        target = row.id;
        run.created[key]++;
        run.published.persons[type].push(target);
      }
      run.maps.persons[type].set(p.id, target);
    }
  }
}

/** Intervals, by name (case-insensitive, their unique index), else created with their line items. */
export async function importIntervals(run: Run, doc: Doc) {
  const { trx, fleet, actor } = run;
  const existing = await trx
    .selectFrom('intervals')
    .select(['id', 'name'])
    .where('fleet_id', '=', fleet.id)
    .execute();
  const byName = new Map(existing.map((i) => [i.name.toLowerCase(), i.id]));
  for (const iv of doc.intervals) {
    let target = byName.get(iv.name.toLowerCase());
    if (target !== undefined) run.matched.intervals++;
    else {
      const { id: _id, li, ...rest } = iv;
      const row = await trx
        .insertInto('intervals')
        .values({ ...rest, fleet_id: fleet.id, creator_id: actor.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      const created = row.id;
      target = created;
      if (li.length)
        await trx
          .insertInto('interval_line_items')
          .values(li.map((l, position) => ({ interval_id: created, position, ...l })))
          .execute();
      byName.set(iv.name.toLowerCase(), target);
      run.created.intervals++;
      run.published.intervals.push(target);
    }
    run.maps.intervals.set(iv.id, target);
  }
}

/**
 * Assignments, by interval and object (their unique index): a matched one keeps its baseline. Returns
 * the matched ones (an open service of theirs may already exist, spec §4).
 */
export async function importAssignments(run: Run, doc: Doc): Promise<Set<number>> {
  const { trx, fleet, t } = run;
  const matched = new Set<number>();
  const mappedIntervals = [...new Set(run.maps.intervals.values())];
  const existing = mappedIntervals.length
    ? await trx
        .selectFrom('assignments')
        .select(['id', 'interval_id', 'object_type', 'object_id'])
        .where('fleet_id', '=', fleet.id)
        .where('interval_id', 'in', mappedIntervals)
        .execute()
    : [];
  const key = (interval: number, type: string, object: number) => `${interval}:${type}:${object}`;
  const byKey = new Map(existing.map((a) => [key(a.interval_id, a.object_type, a.object_id), a.id]));
  for (const a of doc.assignments) {
    const interval = run.maps.intervals.get(a.interval_id)!;
    const object = objectOf(run, a.object_type, a.object_id);
    const k = key(interval, a.object_type, object);
    let target = byKey.get(k);
    if (target !== undefined) {
      run.matched.assignments++;
      matched.add(target);
    } else {
      const row = await trx
        .insertInto('assignments')
        .values({
          fleet_id: fleet.id,
          interval_id: interval,
          object_type: a.object_type,
          object_id: object,
          lcnm: a.lcnm,
          lceh: a.lceh,
          ltm: a.ltm,
          cnt: a.cnt,
          created_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      target = row.id;
      byKey.set(k, target);
      run.created.assignments++;
      run.published.assignments.push(target);
      if (!run.published.intervals.includes(interval)) run.published.intervals.push(interval);
    }
    run.maps.assignments.set(a.id, target);
  }
  return matched;
}

/** A created unit's photo from the document (version 4): stored as its one attachment and named on the unit. */
async function importUnitPhoto(run: Run, unitId: number, files: Doc['units'][number]['attachments']) {
  const photo = files[0];
  if (!photo) return;
  const data = Buffer.from(photo.data, 'base64');
  const row = await run.trx
    .insertInto('attachments')
    .values({
      fleet_id: run.fleet.id,
      owner_type: UNIT_ATTACHMENT_OWNER,
      owner_id: unitId,
      name: photo.name,
      content_type: photo.content_type,
      size: data.length,
      data,
      created_at: photo.created_at,
      creator_id: run.actor.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await run.trx.updateTable('units').set({ photo_id: row.id }).where('id', '=', unitId).execute();
  run.created.attachments++;
}
