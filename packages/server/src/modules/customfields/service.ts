import {
  aclSatisfies,
  type CustomFieldBody,
  type CustomFieldOwnerType,
  CustomFieldType,
  type CustomFieldUpdateBody,
  type CustomFieldValue,
  ErrorCode,
  type LiveEvent,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { DialectOps } from '../../db/dialect/index.js';
import type { CustomFieldRow, Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { AppError, accessDenied, conflict, invalidInput, notFound } from '../../http/errors.js';
import { refuseChangedFixed } from '../../http/fixed-fields.js';
import { personToWire, unitToWire } from '../fleets/mappers.js';
import { fuelWiresOfFleet } from '../fuel/load.js';
import { byName, type Issue, isUniqueViolation } from '../lineitems/library.js';
import { byIds, loadWires } from '../services/load.js';
import {
  checkOptions,
  checkValues,
  customFieldToWire,
  fieldKey,
  holdsValue,
  parseValues,
  valuesOutside,
  withoutField,
} from './rules.js';

/**
 * Custom field definitions (spec §7 "Custom fields") and the check of values written elsewhere.
 *
 * Permissions (spec §6): custom fields are part of fleet administration (spec §2 `/fleet/{fleetId}`
 * waits for them; PRODUCT.md "Administration" lists them among the fleet settings), and "Admins set up"
 * the fleet; so changing definitions needs the admin bit. Their values show on every service object
 * and service, so any member of the fleet may read the definitions.
 */

const DUPLICATE = 'A custom field with this name exists for this owner type';
const OUTSIDE_OPTIONS = 'Held by objects or services but not among the options';
export const NOT_FOUND = 'Custom field not found';

/** Tables whose rows carry `cf` values, with the collection of their live events (DESIGN §6). */
const HOLDERS = [
  { table: 'units', collection: 'avl_unit' },
  { table: 'drivers', collection: 'driver' },
  { table: 'trailers', collection: 'trailer' },
  { table: 'services', collection: 'service' },
  { table: 'fuel_fillings', collection: 'fuelfilling' },
] as const;
type HolderTable = (typeof HOLDERS)[number]['table'];
const CHUNK = 1000;

async function fleetFields(db: Kysely<Database>, fleetId: number) {
  return db.selectFrom('custom_fields').selectAll().where('fleet_id', '=', fleetId).execute();
}

/**
 * The fleet's definitions as a write of values reads them, inside the writer's transaction. On PostgreSQL
 * they stay locked FOR SHARE until the writer commits, so a definition change or delete (which locks its
 * row FOR UPDATE first) either waits and then sees the written values, or goes first and the writer then
 * finds the field gone or changed. Writers call this before they touch any row of a holder table, and
 * changes lock the definition before any holder row, so the two never wait on each other in a circle.
 * SQLite runs one write transaction at a time.
 */
async function fieldsForWrite(db: Kysely<Database>, ops: DialectOps, fleetId: number) {
  const query = db.selectFrom('custom_fields').selectAll().where('fleet_id', '=', fleetId);
  return ops.forShare(query).execute();
}

/**
 * Locks one definition against writers of its values (PostgreSQL; see fieldsForWrite). A definition
 * deleted by a concurrent request answers like an unknown one.
 */
async function lockField(db: Kysely<Database>, ops: DialectOps, id: number) {
  const query = db.selectFrom('custom_fields').select('id').where('id', '=', id);
  const row = await ops.forUpdate(query).executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
}

/**
 * A checker of values against the fleet's fields of one owner type, for batch writes (one query, none
 * when no row writes values). Returns issues with fields under `prefix` (spec §5 style: every bad field
 * is listed). `trx` is the writer's transaction (see fieldsForWrite); `written` are the rows' values.
 */
export async function customValueChecker(
  trx: Kysely<Database>,
  ops: DialectOps,
  fleetId: number,
  ownerType: CustomFieldOwnerType,
  written: readonly (readonly CustomFieldValue[] | undefined)[],
) {
  if (!written.some((values) => values && values.length > 0)) return (): Issue[] => [];
  const fields = new Map((await fieldsForWrite(trx, ops, fleetId)).map((f) => [f.id, f]));
  return (values: readonly CustomFieldValue[] | undefined, prefix = 'body.') =>
    checkValues(fields, ownerType, values, prefix);
}

/**
 * The check every write of `cf` calls (services, units, drivers, trailers): ids must be custom fields
 * of this fleet and owner type, list values one of the options, texts at most 512 characters.
 * Nothing to check (no query) when no values are written. Called inside the writer's transaction,
 * before it writes (see fieldsForWrite).
 */
export async function validateCustomValues(
  trx: Kysely<Database>,
  ops: DialectOps,
  fleetId: number,
  ownerType: CustomFieldOwnerType,
  values: readonly CustomFieldValue[] | undefined,
  prefix = 'body.',
): Promise<Issue[]> {
  return (await customValueChecker(trx, ops, fleetId, ownerType, [values]))(values, prefix);
}

/** Rows of a table that hold any entry of the field (a text prefilter, then the parsed values). */
async function holdersIn(db: Kysely<Database>, table: HolderTable, fleetId: number, fieldId: number) {
  // The four tables share `id`, `fleet_id` and `cf`; one typed query serves them all.
  const rows = await db
    .selectFrom(table as 'units')
    .select(['id', 'cf'])
    .where('fleet_id', '=', fleetId)
    .where('cf', 'like', `%"id":${fieldId}%`)
    .execute();
  return rows
    .map((r) => ({ id: r.id, values: parseValues(r.cf) }))
    .filter((r) => r.values.some((x) => x.id === fieldId));
}

async function heldValues(db: Kysely<Database>, fleetId: number, fieldId: number): Promise<string[]> {
  const out: string[] = [];
  for (const { table } of HOLDERS)
    for (const r of await holdersIn(db, table, fleetId, fieldId))
      for (const x of r.values) if (x.id === fieldId && x.v !== '') out.push(x.v);
  return out;
}

/** The field, if the actor may see its fleet; an id of another fleet answers like an unknown one. */
async function fieldFor(ctx: AppContext, actor: Actor, id: number, write: boolean) {
  const row = await ctx.db.kysely
    .selectFrom('custom_fields')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(NOT_FOUND);
  let acl: number;
  try {
    ({ acl } = await requireFleet(ctx, actor, row.fleet_id, 'fleet.member'));
  } catch (err) {
    if (err instanceof AppError && err.code === ErrorCode.accessDenied) throw notFound(NOT_FOUND);
    throw err;
  }
  if (write && !aclSatisfies(acl, 'fleet.admin')) throw accessDenied();
  return row;
}

function checkDuplicate(rows: CustomFieldRow[], ownerType: string, name: string, exceptId?: number) {
  const key = fieldKey(ownerType, name);
  if (rows.some((r) => r.id !== exceptId && fieldKey(r.owner_type, r.name) === key))
    throw conflict(DUPLICATE, [{ field: 'body.n', reason: DUPLICATE }]);
}

/** Maps the unique index `custom_fields_name` to error 10 when two writers race. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE, [{ field: 'body.n', reason: DUPLICATE }]);
    throw err;
  }
}

/** GET /fleets/{fid}/custom-fields: `{custom_fields}` sorted by name, natural and case-insensitive. */
export async function listFields(ctx: AppContext, actor: Actor, fleetId: number) {
  await requireFleet(ctx, actor, fleetId, 'fleet.member');
  const rows = await fleetFields(ctx.db.kysely, fleetId);
  return { custom_fields: rows.sort(byName).map(customFieldToWire) };
}

export async function getField(ctx: AppContext, actor: Actor, id: number) {
  return customFieldToWire(await fieldFor(ctx, actor, id, false));
}

export async function createField(ctx: AppContext, actor: Actor, fleetId: number, input: CustomFieldBody) {
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  const { issues, options } = checkOptions(input.tp, input.s?.options);
  if (issues.length) throw invalidInput(issues);
  checkDuplicate(await fleetFields(ctx.db.kysely, fleetId), input.t, input.n);
  const t = now();
  return guarded(() =>
    unitOfWork(ctx, async (trx, uow) => {
      const row = await trx
        .insertInto('custom_fields')
        .values({
          fleet_id: fleetId,
          name: input.n,
          type: input.tp,
          options: JSON.stringify(options),
          owner_type: input.t,
          created_at: t,
          updated_at: t,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const wire = customFieldToWire(row);
      uow.emit({ t: 'c', s: 'customfield', fid: fleetId, d: wire });
      return wire;
    }),
  );
}

/**
 * PUT /custom-fields/{id}: name, type and options; the owner type stays (values belong to their
 * owners). A change that would leave held values outside a list's options is refused (error 10) with
 * the values concerned, so no object silently keeps a value its field no longer allows.
 */
export async function updateField(ctx: AppContext, actor: Actor, id: number, patch: CustomFieldUpdateBody) {
  const row = await fieldFor(ctx, actor, id, true);
  // The owner type stays (values belong to their owners): a different one is refused.
  refuseChangedFixed(patch, customFieldToWire(row));
  const name = patch.n ?? row.name;
  const tp = patch.tp ?? row.type;
  const kept =
    row.type === CustomFieldType.list && tp === CustomFieldType.list ? customFieldToWire(row).s.options : [];
  const { issues, options } = checkOptions(tp, patch.s?.options ?? kept);
  if (issues.length) throw invalidInput(issues);
  checkDuplicate(await fleetFields(ctx.db.kysely, row.fleet_id), row.owner_type, name, id);
  // One transaction with the definition locked first: no value outside the new options is written
  // between the check of the held values and the change.
  return guarded(() =>
    unitOfWork(ctx, async (trx, uow) => {
      await lockField(trx, ctx.db.ops, id);
      if (tp === CustomFieldType.list) {
        const outside = valuesOutside(await heldValues(trx, row.fleet_id, id), options);
        if (outside.size)
          throw conflict(
            'Some objects hold values that are not among the options',
            [...outside].map(([value, count]) => ({
              field: 'body.s.options',
              reason: OUTSIDE_OPTIONS,
              value,
              values: count,
            })),
          );
      }
      const updated = await trx
        .updateTable('custom_fields')
        .set({ name, type: tp, options: JSON.stringify(options), updated_at: now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const wire = customFieldToWire(updated);
      uow.emit({ t: 'u', s: 'customfield', fid: row.fleet_id, d: wire });
      return wire;
    }),
  );
}

/**
 * DELETE /custom-fields/{id}?safe=1 (spec §7; safe defaults to 1). Safe: refused with error 10 while
 * any object or service of the fleet holds a value (PRODUCT.md "deleting one that has values asks
 * first"). Unsafe: the definition and every value of it go in one transaction, and the owners whose
 * values changed are published.
 */
export async function deleteField(ctx: AppContext, actor: Actor, id: number, safe: boolean) {
  const row = await fieldFor(ctx, actor, id, true);
  const fleetId = row.fleet_id;
  const changed = new Map<HolderTable, number[]>();
  let values = 0;
  await unitOfWork(ctx, async (trx, uow) => {
    // The definition first: writers of its values hold it FOR SHARE until they commit (fieldsForWrite).
    await lockField(trx, ctx.db.ops, id);
    const found = new Map<HolderTable, { id: number; values: CustomFieldValue[] }[]>();
    for (const { table } of HOLDERS) {
      const rows = await holdersIn(trx, table, fleetId, id);
      found.set(table, rows);
      values += rows.filter((r) => holdsValue(r.values, id)).length;
    }
    if (safe && values > 0)
      throw conflict(
        values === 1
          ? 'The custom field has 1 value; delete with safe=0 to remove it too'
          : `The custom field has ${values} values; delete with safe=0 to remove them too`,
        [{ id, reason: 'Objects or services hold values of the custom field', values }],
      );
    for (const [table, rows] of found) {
      for (const r of rows) {
        const kept = withoutField(r.values, id);
        if (!kept) continue;
        await trx
          .updateTable(table as 'units')
          .set({ cf: JSON.stringify(kept) })
          .where('id', '=', r.id)
          .execute();
      }
      if (rows.length)
        changed.set(
          table,
          rows.map((r) => r.id),
        );
    }
    await trx.deleteFrom('custom_fields').where('id', '=', id).execute();
    uow.afterCommit(() => ownerEvents(ctx, fleetId, changed));
    uow.emit({ t: 'd', s: 'customfield', fid: fleetId, d: { id } });
  });
  return { error: 0 as const, values };
}

/** Update events of the owners whose values were stripped, read after commit. */
async function ownerEvents(ctx: AppContext, fleetId: number, changed: Map<HolderTable, number[]>) {
  const db = ctx.db.kysely;
  const events: LiveEvent[] = [];
  for (const { table, collection } of HOLDERS) {
    const ids = changed.get(table) ?? [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK);
      let wires: unknown[];
      if (table === 'services') wires = await loadWires(db, ctx.db.ops, fleetId, byIds(fleetId, part));
      else if (table === 'fuel_fillings') wires = await fuelWiresOfFleet(db, fleetId, part);
      else if (table === 'units')
        wires = (await db.selectFrom('units').selectAll().where('id', 'in', part).execute()).map(unitToWire);
      else
        wires = (await db.selectFrom(table).selectAll().where('id', 'in', part).execute()).map(personToWire);
      for (const d of wires) events.push({ t: 'u', s: collection, fid: fleetId, d });
    }
  }
  return events;
}
