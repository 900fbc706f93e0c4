import { randomUUID } from 'node:crypto';
import {
  type FieldIssue,
  type FleetTransferDocument,
  type FleetTransferReply,
  type NewDomainEvent,
  SERVICE_ATTACHMENT_BYTES_MAX,
  SERVICE_ATTACHMENTS_MAX,
  serviceWriteChanges,
  type TransferCounts,
  type TransferService,
  UserEventType,
} from '@fleetkeep/core';
import { type Kysely, sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database, FleetRow, LineItemRow } from '../../db/schema.js';
import { recompute } from '../../engine/index.js';
import { serviceEvents } from '../../events/domain.js';
import { recordDomainEvents } from '../../events/outbox.js';
import { invalidInput } from '../../http/errors.js';
import { customFieldToWire } from '../customfields/rules.js';
import { personToWire, unitToWire } from '../fleets/mappers.js';
import { wiresByIds } from '../fuel/load.js';
import { figuresOf } from '../fuel/rules.js';
import { loadIntervals } from '../intervals/store.js';
import { ensureLibraryItems } from '../lineitems/library.js';
import { libraryItemToWire } from '../maintenance-wire.js';
import { syncIns } from '../services/effects.js';
import { byIds, loadWires, type ObjectKey, objectKey } from '../services/load.js';
import { applyCostDelta, fuelContribution, trackServices } from '../statistics/cost-days.js';
import { isFinished } from './export.js';

/**
 * The import of a fleet export document into a fleet (issue 12 item 3), in one transaction: all of it or
 * nothing (DESIGN §5). Every id is remapped. What already exists in the target fleet is reused, never
 * changed:
 *
 * - units, drivers and trailers: matched by exact name (spec §5: unit names are case-sensitive; the
 *   lowest id wins among equal names), otherwise created in the fleet's account. A created unit gets
 *   the exported actual counters as its counters (base 0) and a device identifier `import-<uuid>`, which
 *   the admin replaces with the tracker's (PUT .../units/{id}/device);
 * - intervals by name (case-insensitive, as their unique index), custom fields by owner type and name,
 *   library items by kind and name (lineitems/library.ts), assignments by interval and object: a
 *   matched one keeps its own definition and baseline;
 * - services, the archive and fuel fillings are always added. An open service whose assignment is a
 *   matched one that already has an open service is skipped (one open service per assignment, spec §4).
 *
 * The writers' bookkeeping follows the existing writers: `service.created`/`fuel.created` domain events
 * (events/domain.ts, outbox), the daily cost aggregates (statistics/cost-days.ts), the in-progress markers
 * (services/effects.ts `syncIns`), new library names; after commit the live events and the status engine.
 */

type Db = Kysely<Database>;
type Doc = FleetTransferDocument;
type ObjType = 'u' | 'd' | 't';

/** What the LubeLogger migration says about units instead of matching them by name. */
export type UnitTarget = { unit: number } | { create: string };

export interface ImportOptions {
  /** Per source unit id: an existing unit of the fleet or a new one (LubeLogger vehicle mapping). */
  unitTargets?: Map<number, UnitTarget>;
  /** Field prefix of issues (`body.document.`). */
  prefix?: string;
}

const zero = (): TransferCounts => ({
  units: 0,
  drivers: 0,
  trailers: 0,
  custom_fields: 0,
  line_items: 0,
  intervals: 0,
  assignments: 0,
  services: 0,
  archive: 0,
  fuel_fillings: 0,
  attachments: 0,
});

/** Checks what the schema cannot: unique ids, references between collections, attachment caps. */
export function documentIssues(doc: Doc, prefix: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const ids = (key: keyof Doc, list: { id: number }[]) => {
    const seen = new Set<number>();
    list.forEach((r, i) => {
      if (seen.has(r.id)) issues.push({ field: `${prefix}${String(key)}.${i}.id`, message: 'Duplicate id' });
      seen.add(r.id);
    });
    return seen;
  };
  const units = ids('units', doc.units);
  const objects: Record<ObjType, Set<number>> = {
    u: units,
    d: ids('drivers', doc.drivers),
    t: ids('trailers', doc.trailers),
  };
  const intervals = ids('intervals', doc.intervals);
  const assignments = ids('assignments', doc.assignments);
  const fieldsById = new Map(doc.custom_fields.map((f) => [f.id, f.owner_type]));
  ids('custom_fields', doc.custom_fields);
  ids('line_items', doc.line_items);
  const serviceIds = new Set<number>();
  const assignmentOf = new Map(doc.assignments.map((a) => [a.id, a]));
  const checkCf = (cf: { id: number }[], owner: string, field: string) => {
    cf.forEach((v, j) => {
      if (fieldsById.get(v.id) !== owner)
        issues.push({ field: `${field}.cf.${j}.id`, message: 'Unknown custom field' });
    });
  };
  for (const [i, u] of doc.units.entries()) checkCf(u.cf, 'u', `${prefix}units.${i}`);
  for (const [i, p] of doc.drivers.entries()) checkCf(p.cf, 'd', `${prefix}drivers.${i}`);
  for (const [i, p] of doc.trailers.entries()) checkCf(p.cf, 't', `${prefix}trailers.${i}`);
  doc.assignments.forEach((a, i) => {
    if (!intervals.has(a.interval_id))
      issues.push({ field: `${prefix}assignments.${i}.interval_id`, message: 'Unknown interval' });
    if (!objects[a.object_type].has(a.object_id))
      issues.push({ field: `${prefix}assignments.${i}.object_id`, message: 'Unknown object' });
  });
  const checkFiles = (files: { data: string }[], field: string) => {
    let bytes = 0;
    for (const f of files) bytes += Buffer.byteLength(f.data, 'base64');
    if (files.length > SERVICE_ATTACHMENTS_MAX || bytes > SERVICE_ATTACHMENT_BYTES_MAX)
      issues.push({
        field: `${field}.attachments`,
        message: `At most ${SERVICE_ATTACHMENTS_MAX} files and ${SERVICE_ATTACHMENT_BYTES_MAX} bytes`,
      });
    files.forEach((f, j) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data) || f.data.length % 4 !== 0)
        issues.push({ field: `${field}.attachments.${j}.data`, message: 'Not base64' });
    });
  };
  for (const key of ['services', 'archive'] as const) {
    doc[key].forEach((s, i) => {
      const field = `${prefix}${key}.${i}`;
      if (serviceIds.has(s.id)) issues.push({ field: `${field}.id`, message: 'Duplicate id' });
      serviceIds.add(s.id);
      if (isFinished(s.f) !== (key === 'archive'))
        issues.push({ field: `${field}.f`, message: key === 'archive' ? 'Not finished' : 'Finished' });
      if (!objects[s.object_type].has(s.object_id))
        issues.push({ field: `${field}.object_id`, message: 'Unknown object' });
      if (s.interval_id !== null && !intervals.has(s.interval_id))
        issues.push({ field: `${field}.interval_id`, message: 'Unknown interval' });
      if (s.assignment_id !== null) {
        const a = assignmentOf.get(s.assignment_id);
        if (!assignments.has(s.assignment_id) || !a)
          issues.push({ field: `${field}.assignment_id`, message: 'Unknown assignment' });
        else if (
          a.object_type !== s.object_type ||
          a.object_id !== s.object_id ||
          a.interval_id !== s.interval_id
        )
          issues.push({
            field: `${field}.assignment_id`,
            message: 'Assignment of another object or interval',
          });
      }
      checkCf(s.cf, 's', field);
      checkFiles(s.attachments, field);
    });
  }
  doc.fuel_fillings.forEach((f, i) => {
    const field = `${prefix}fuel_fillings.${i}`;
    if (!units.has(f.unit_id)) issues.push({ field: `${field}.unit_id`, message: 'Unknown unit' });
    checkCf(f.cf, 'f', field);
    checkFiles(f.attachments, field);
  });
  return issues;
}

/** What the import changed, published after commit. */
interface Published {
  units: number[];
  persons: { d: number[]; t: number[] };
  fields: number[];
  library: LineItemRow[];
  intervals: number[];
  assignments: number[];
  services: number[];
  fuel: number[];
  owners: Awaited<ReturnType<typeof syncIns>>;
}

const json = (v: unknown) => JSON.stringify(v);

/** Imports `doc` into `fleet` inside `trx`; returns the reply and what to publish after commit. */
export async function importInto(
  ctx: AppContext,
  trx: Db,
  fleet: FleetRow,
  actor: Actor,
  doc: Doc,
  options: ImportOptions = {},
): Promise<{ reply: FleetTransferReply; published: Published }> {
  const prefix = options.prefix ?? 'body.document.';
  const issues = documentIssues(doc, prefix);
  if (issues.length) throw invalidInput(issues.slice(0, 200));
  const fid = fleet.id;
  const t = now();
  const created = zero();
  const matched = zero();
  const skipped = zero();
  const published: Published = {
    units: [],
    persons: { d: [], t: [] },
    fields: [],
    library: [],
    intervals: [],
    assignments: [],
    services: [],
    fuel: [],
    owners: [],
  };

  // Custom fields: by owner type and name (their unique index), else created.
  const fieldMap = new Map<number, number>();
  const existingFields = await trx
    .selectFrom('custom_fields')
    .selectAll()
    .where('fleet_id', '=', fid)
    .execute();
  const fieldKey = (owner: string, name: string) => `${owner}:${name.trim().toLowerCase()}`;
  const fieldByKey = new Map(existingFields.map((f) => [fieldKey(f.owner_type, f.name), f.id]));
  for (const f of doc.custom_fields) {
    const key = fieldKey(f.owner_type, f.name);
    let target = fieldByKey.get(key);
    if (target !== undefined) matched.custom_fields++;
    else {
      const row = await trx
        .insertInto('custom_fields')
        .values({
          fleet_id: fid,
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
      fieldByKey.set(key, target);
      created.custom_fields++;
      published.fields.push(target);
    }
    fieldMap.set(f.id, target);
  }
  const cfOut = (cf: { id: number; v: string }[]) =>
    json(cf.flatMap((v) => (fieldMap.has(v.id) ? [{ id: fieldMap.get(v.id)!, v: v.v }] : [])));

  // The library: names not yet in it join it (lineitems/library.ts).
  const library = await ensureLibraryItems(
    trx,
    fid,
    doc.line_items.map((l) => ({ name: l.name, kind: l.kind, cost: l.cost })),
  );
  published.library.push(...library);
  created.line_items = library.length;
  matched.line_items = doc.line_items.length - library.length;

  // Units.
  const unitMap = new Map<number, number>();
  const fleetUnits = await trx
    .selectFrom('units')
    .select(['id', 'name'])
    .where('fleet_id', '=', fid)
    .orderBy('id')
    .execute();
  const unitByName = new Map<string, number>();
  for (const u of fleetUnits) if (!unitByName.has(u.name)) unitByName.set(u.name, u.id);
  const fleetUnitIds = new Set(fleetUnits.map((u) => u.id));
  const knownTypes = new Set((await trx.selectFrom('unit_types').select('id').execute()).map((r) => r.id));
  for (const [i, u] of doc.units.entries()) {
    const target = options.unitTargets?.get(u.id);
    let unitId: number | undefined;
    if (target && 'unit' in target) {
      if (!fleetUnitIds.has(target.unit))
        throw invalidInput([{ field: `body.vehicles.${i}.unit`, message: 'Unknown unit' }]);
      unitId = target.unit;
    } else if (!target) unitId = unitByName.get(u.name);
    if (unitId !== undefined) {
      matched.units++;
    } else {
      const row = await trx
        .insertInto('units')
        .values({
          account_id: fleet.account_id,
          fleet_id: fid,
          name: target && 'create' in target ? target.create : u.name,
          device_id: `import-${randomUUID()}`,
          unit_type_id: u.unit_type_id !== null && knownTypes.has(u.unit_type_id) ? u.unit_type_id : null,
          mileage: u.mileage,
          engine_hours: u.engine_hours,
          base_mileage: 0,
          base_engine_hours: 0,
          pulled_mileage: 0,
          pulled_engine_hours: 0,
          joined_at: t,
          last_time: null,
          lat: null,
          lon: null,
          speed: null,
          course: null,
          altitude: null,
          ignition: null,
          props: '{}',
          params: '{}',
          cf: cfOut(u.cf),
          ins: 0,
          created_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      unitId = row.id;
      created.units++;
      published.units.push(unitId);
    }
    unitMap.set(u.id, unitId);
  }

  // Drivers and trailers.
  const personMap: Record<'d' | 't', Map<number, number>> = { d: new Map(), t: new Map() };
  for (const [type, table, key] of [
    ['d', 'drivers', 'drivers'],
    ['t', 'trailers', 'trailers'],
  ] as const) {
    const existing = await trx
      .selectFrom(table)
      .select(['id', 'name'])
      .where('fleet_id', '=', fid)
      .orderBy('id')
      .execute();
    const byName = new Map<string, number>();
    for (const p of existing) if (!byName.has(p.name)) byName.set(p.name, p.id);
    for (const p of doc[key]) {
      let target = byName.get(p.name);
      if (target !== undefined) matched[key]++;
      else {
        const row = await trx
          .insertInto(table)
          .values({
            account_id: fleet.account_id,
            fleet_id: fid,
            name: p.name,
            ds: p.ds,
            c: p.c,
            cf: cfOut(p.cf),
            ins: 0,
            created_at: t,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        target = row.id;
        created[key]++;
        published.persons[type].push(target);
      }
      personMap[type].set(p.id, target);
    }
  }
  const objectOf = (type: ObjType, id: number) => (type === 'u' ? unitMap : personMap[type]).get(id)!;

  // Intervals, by name (case-insensitive, their unique index).
  const intervalMap = new Map<number, number>();
  const existingIntervals = await trx
    .selectFrom('intervals')
    .select(['id', 'name'])
    .where('fleet_id', '=', fid)
    .execute();
  const intervalByName = new Map(existingIntervals.map((i) => [i.name.toLowerCase(), i.id]));
  for (const iv of doc.intervals) {
    let target = intervalByName.get(iv.name.toLowerCase());
    if (target !== undefined) matched.intervals++;
    else {
      const { id: _id, li, ...rest } = iv;
      const row = await trx
        .insertInto('intervals')
        .values({ ...rest, fleet_id: fid, creator_id: actor.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      target = row.id;
      if (li.length)
        await trx
          .insertInto('interval_line_items')
          .values(li.map((l, position) => ({ interval_id: target!, position, ...l })))
          .execute();
      intervalByName.set(iv.name.toLowerCase(), target);
      created.intervals++;
      published.intervals.push(target);
    }
    intervalMap.set(iv.id, target);
  }

  // Assignments, by interval and object (their unique index): a matched one keeps its baseline.
  const assignmentMap = new Map<number, number>();
  const matchedAssignments = new Set<number>();
  const mappedIntervals = [...new Set(intervalMap.values())];
  const existingAssignments = mappedIntervals.length
    ? await trx
        .selectFrom('assignments')
        .select(['id', 'interval_id', 'object_type', 'object_id'])
        .where('fleet_id', '=', fid)
        .where('interval_id', 'in', mappedIntervals)
        .execute()
    : [];
  const aKey = (interval: number, type: string, object: number) => `${interval}:${type}:${object}`;
  const assignmentByKey = new Map(
    existingAssignments.map((a) => [aKey(a.interval_id, a.object_type, a.object_id), a.id]),
  );
  for (const a of doc.assignments) {
    const interval = intervalMap.get(a.interval_id)!;
    const object = objectOf(a.object_type, a.object_id);
    const key = aKey(interval, a.object_type, object);
    let target = assignmentByKey.get(key);
    if (target !== undefined) {
      matched.assignments++;
      matchedAssignments.add(target);
    } else {
      const row = await trx
        .insertInto('assignments')
        .values({
          fleet_id: fid,
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
      assignmentByKey.set(key, target);
      created.assignments++;
      published.assignments.push(target);
      if (!published.intervals.includes(interval)) published.intervals.push(interval);
    }
    assignmentMap.set(a.id, target);
  }

  // Services and the archive.
  const busy = matchedAssignments.size
    ? new Set(
        (
          await trx
            .selectFrom('services')
            .select('assignment_id')
            .where('fleet_id', '=', fid)
            .where('assignment_id', 'in', [...matchedAssignments])
            .where(sql<number>`(${sql.ref('f')} & 24)`, '=', 0)
            .execute()
        ).map((r) => r.assignment_id),
      )
    : new Set<number | null>();
  const costs = await trackServices(trx, []);
  const events: NewDomainEvent[] = [];
  const owners = new Set<ObjectKey>();
  const libraryNames: { name: string; kind: number; cost: number }[] = [];
  const insertFiles = async (owner: string, ownerId: number, files: TransferService['attachments']) => {
    for (const f of files) {
      const data = Buffer.from(f.data, 'base64');
      await trx
        .insertInto('attachments')
        .values({
          fleet_id: fid,
          owner_type: owner,
          owner_id: ownerId,
          name: f.name,
          content_type: f.content_type,
          size: data.length,
          data,
          created_at: f.created_at,
          creator_id: actor.userId,
        })
        .execute();
      created.attachments++;
    }
  };
  for (const key of ['services', 'archive'] as const) {
    for (const s of doc[key]) {
      const assignment = s.assignment_id === null ? null : assignmentMap.get(s.assignment_id)!;
      if (key === 'services' && assignment !== null && busy.has(assignment)) {
        skipped.services++;
        continue;
      }
      if (key === 'services' && assignment !== null) busy.add(assignment);
      const object = objectOf(s.object_type, s.object_id);
      const { id: _id, li, attachments, cf, ...rest } = s;
      const row = {
        ...rest,
        fleet_id: fid,
        object_id: object,
        interval_id: s.interval_id === null ? null : intervalMap.get(s.interval_id)!,
        assignment_id: assignment,
        creator_id: actor.userId,
        cf: cfOut(cf),
      };
      const { id } = await trx.insertInto('services').values(row).returning('id').executeTakeFirstOrThrow();
      // Domain event "service created", as the services writer records it (events/domain.ts).
      events.push(...serviceEvents(serviceWriteChanges(null, row.f), { id, ...row }, t, actor.userId));
      if (li.length) {
        await trx
          .insertInto('service_line_items')
          .values(li.map((l, position) => ({ service_id: id, position, ...l })))
          .execute();
        libraryNames.push(...li.map((l) => ({ name: l.name, kind: l.kind, cost: l.cost })));
      }
      await insertFiles('service', id, attachments);
      costs.add(id);
      owners.add(objectKey(s.object_type, object));
      created[key]++;
      published.services.push(id);
    }
  }
  await costs.done(); // statistics: closed services add to the daily cost aggregates

  // Fuel fillings.
  const contributions = [];
  for (const f of doc.fuel_fillings) {
    const { id: _id, attachments, cf, ...rest } = f;
    const row = {
      ...rest,
      fleet_id: fid,
      unit_id: unitMap.get(f.unit_id)!,
      cf: cfOut(cf),
      creator_id: actor.userId,
    };
    const { id } = await trx
      .insertInto('fuel_fillings')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    events.push({ type: 'fuel.created', fid, at: t, by: actor.userId, fillingId: id, ...figuresOf(row) });
    contributions.push(fuelContribution(fid, fleet.tz, figuresOf(row)));
    await insertFiles('fuel', id, attachments);
    if (row.fuel_type.trim()) libraryNames.push({ name: row.fuel_type, kind: 4, cost: row.price ?? 0 });
    created.fuel_fillings++;
    published.fuel.push(id);
  }
  await applyCostDelta(trx, null, contributions); // statistics
  await recordDomainEvents(trx, events); // in the import's transaction (events/outbox.ts)

  // Names of line items and fuel types that the library lacks join it, as the writers do.
  const more = await ensureLibraryItems(trx, fid, libraryNames);
  published.library.push(...more);
  created.line_items += more.length;

  published.owners = await syncIns(trx, ctx.db.dialect, fid, owners);

  const pairs = (m: Map<number, number>) => [...m.entries()] as [number, number][];
  return {
    reply: {
      created,
      matched,
      skipped,
      ids: {
        units: pairs(unitMap),
        drivers: pairs(personMap.d),
        trailers: pairs(personMap.t),
        intervals: pairs(intervalMap),
      },
    },
    published,
  };
}

const CHUNK = 500;
const chunks = (ids: number[]) => {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(ids.slice(i, i + CHUNK));
  return out;
};

/** Above this many created records, the fleet's members are told "fleet changed" instead of each record. */
export const LIVE_EVENTS_MAX = 1000;

/**
 * After commit: the outbox, the live events of what was created (DESIGN §6), and the status engine on
 * the new assignments. A large import would flood every socket, so beyond LIVE_EVENTS_MAX records the
 * fleet's other members get spec §4 user event 64 ("current fleet changed", whose dialog reloads) instead.
 */
export async function publishImport(
  ctx: AppContext,
  fleet: FleetRow,
  actor: Actor,
  p: Published,
): Promise<void> {
  ctx.outbox.publish();
  const db = ctx.db.kysely;
  const fid = fleet.id;
  const total =
    p.units.length +
    p.persons.d.length +
    p.persons.t.length +
    p.fields.length +
    p.library.length +
    p.intervals.length +
    p.services.length +
    p.fuel.length;
  if (total > LIVE_EVENTS_MAX) {
    const members = await db
      .selectFrom('fleet_users')
      .select('user_id')
      .where('fleet_id', '=', fid)
      .execute();
    for (const m of members)
      await ctx.bus.publish({
        t: 'e',
        s: 'user',
        fid: null,
        uid: m.user_id,
        d: { type: UserEventType.fleetChanged, fid },
        by: actor.sessionId,
      });
    await recomputeAfter(ctx, p.assignments);
    return;
  }
  for (const part of chunks(p.units))
    for (const r of await db.selectFrom('units').selectAll().where('id', 'in', part).execute())
      await ctx.bus.publish({ t: 'c', s: 'avl_unit', fid, d: unitToWire(r) });
  for (const [type, table, s] of [
    ['d', 'drivers', 'driver'],
    ['t', 'trailers', 'trailer'],
  ] as const)
    for (const part of chunks(p.persons[type]))
      for (const r of await db.selectFrom(table).selectAll().where('id', 'in', part).execute())
        await ctx.bus.publish({ t: 'c', s, fid, d: personToWire(r) });
  for (const part of chunks(p.fields))
    for (const r of await db.selectFrom('custom_fields').selectAll().where('id', 'in', part).execute())
      await ctx.bus.publish({ t: 'c', s: 'customfield', fid, d: customFieldToWire(r) });
  for (const item of p.library)
    await ctx.bus.publish({ t: 'c', s: 'lineitem', fid, d: libraryItemToWire(item) });
  for (const part of chunks(p.intervals))
    for (const d of await loadIntervals(db, fid, part))
      await ctx.bus.publish({ t: 'c', s: 'interval', fid, d });
  for (const part of chunks(p.services))
    for (const d of await loadWires(db, fid, byIds(fid, part)))
      await ctx.bus.publish({ t: 'c', s: 'service', fid, d });
  for (const part of chunks(p.fuel))
    for (const d of await wiresByIds(db, fleet, part))
      await ctx.bus.publish({ t: 'c', s: 'fuelfilling', fid, d });
  for (const e of p.owners) await ctx.bus.publish(e);
  await recomputeAfter(ctx, p.assignments);
}

/** The status engine on new assignments; the import is committed, so a failure is logged (its timer sweeps). */
async function recomputeAfter(ctx: AppContext, assignmentIds: number[]) {
  if (assignmentIds.length === 0) return;
  try {
    await recompute(ctx, { assignmentIds });
  } catch (err) {
    ctx.log.error({ err }, 'recompute after a fleet import failed');
  }
}
