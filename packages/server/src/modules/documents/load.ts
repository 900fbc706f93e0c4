import {
  DEFAULT_REMINDER_DAYS,
  type DocumentDetailWire,
  type DocumentOwnerType,
  type DocumentType,
  type DocumentWire,
  daysLeft,
  documentExpiry,
  fromThousandths,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import type { Database, DocumentRow } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';

/**
 * Documents as read (docs/product.md "Documents"): rows to wires with the owner's name, the
 * fleet-defined type, the expiry state at `now` and the file count, each looked up once per batch.
 */

/** The attachments' owner type of documents in the generic table. */
export const DOCUMENT_ATTACHMENT_OWNER = 'document';

const CHUNK = 500;
const OWNER_TABLE = { u: 'units', t: 'trailers', d: 'drivers' } as const;

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The document of the fleet; one of another fleet answers like a missing one (404). */
export async function loadDocument(db: Kysely<Database>, fleetId: number, id: number): Promise<DocumentRow> {
  const row = await db
    .selectFrom('documents')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Document not found');
  return row;
}

/** Checks that the owner is an object of the fleet (404 otherwise); answers its name. */
export async function documentOwner(
  db: Kysely<Database>,
  fleetId: number,
  type: DocumentOwnerType,
  id: number,
): Promise<string> {
  const row = await db
    .selectFrom(OWNER_TABLE[type])
    .select('name')
    .where('id', '=', id)
    .where('fleet_id', '=', fleetId)
    .executeTakeFirst();
  if (!row)
    throw notFound(type === 'u' ? 'Unit not found' : type === 't' ? 'Trailer not found' : 'Driver not found');
  return row.name;
}

/** The fleet-defined type (404 when not of the fleet). */
export async function loadDocumentType(db: Kysely<Database>, fleetId: number, id: number) {
  const row = await db
    .selectFrom('document_types')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Document type not found');
  return row;
}

async function namesOf(db: Kysely<Database>, fleetId: number, type: DocumentOwnerType, ids: number[]) {
  const out = new Map<number, string>();
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return out;
  // A long list: the fleet's objects of the type in one read (a fleet has far fewer than its documents).
  if (wanted.length > CHUNK) {
    for (const r of await db
      .selectFrom(OWNER_TABLE[type])
      .select(['id', 'name'])
      .where('fleet_id', '=', fleetId)
      .execute())
      out.set(r.id, r.name);
    return out;
  }
  for (const part of chunks(wanted, CHUNK))
    for (const r of await db
      .selectFrom(OWNER_TABLE[type])
      .select(['id', 'name'])
      .where('fleet_id', '=', fleetId)
      .where('id', 'in', part)
      .execute())
      out.set(r.id, r.name);
  return out;
}

async function fileCounts(db: Kysely<Database>, fleetId: number, ids: number[]) {
  const out = new Map<number, number>();
  // A long list: the counts of the fleet's document files in one grouped read.
  if (ids.length > CHUNK) {
    for (const r of await db
      .selectFrom('attachments')
      .select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', DOCUMENT_ATTACHMENT_OWNER)
      .groupBy('owner_id')
      .execute())
      out.set(r.owner_id, Number(r.n));
    return out;
  }
  for (const part of chunks(ids, CHUNK))
    for (const r of await db
      .selectFrom('attachments')
      .select(['owner_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', DOCUMENT_ATTACHMENT_OWNER)
      .where('owner_id', 'in', part)
      .groupBy('owner_id')
      .execute())
      out.set(r.owner_id, Number(r.n));
  return out;
}

/** The fleet's types: id → name and reminder days. */
export async function fleetTypes(db: Kysely<Database>, fleetId: number) {
  const rows = await db
    .selectFrom('document_types')
    .select(['id', 'name', 'reminder_days'])
    .where('fleet_id', '=', fleetId)
    .execute();
  return new Map(rows.map((r) => [r.id, { name: r.name, days: Number(r.reminder_days) }]));
}

export const money = (v: number | null) => (v === null ? null : fromThousandths(Number(v)));
const num = (v: number | null) => (v === null ? null : Number(v));

/** Rows of one fleet to wires, in their order, with the state at `now`. */
export async function documentWires(
  db: Kysely<Database>,
  fleetId: number,
  rows: DocumentRow[],
  now: number,
): Promise<DocumentWire[]> {
  if (rows.length === 0) return [];
  const names = {
    u: await namesOf(
      db,
      fleetId,
      'u',
      rows.filter((r) => r.owner_type === 'u').map((r) => r.owner_id),
    ),
    t: await namesOf(
      db,
      fleetId,
      't',
      rows.filter((r) => r.owner_type === 't').map((r) => r.owner_id),
    ),
    d: await namesOf(
      db,
      fleetId,
      'd',
      rows.filter((r) => r.owner_type === 'd').map((r) => r.owner_id),
    ),
  };
  const types = await fleetTypes(db, fleetId);
  const files = await fileCounts(
    db,
    fleetId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const owner = r.owner_type as DocumentOwnerType;
    const type = r.type_id === null ? undefined : types.get(r.type_id);
    const days = type?.days ?? DEFAULT_REMINDER_DAYS;
    const validTo = Number(r.valid_to);
    return {
      id: r.id,
      owner_type: owner,
      owner_id: r.owner_id,
      owner_name: names[owner].get(r.owner_id) ?? '',
      type: r.type as DocumentType,
      type_id: r.type_id,
      type_name: type?.name ?? '',
      reminder_days: days,
      number: r.number,
      issuer: r.issuer,
      notes: r.notes,
      period_id: r.period_id ?? 0,
      valid_from: num(r.valid_from),
      valid_to: validTo,
      cost: money(r.cost),
      state: documentExpiry(validTo, days, now),
      days_left: daysLeft(validTo, now),
      ats: files.get(r.id) ?? 0,
      created: Number(r.created_at),
      updated: Number(r.updated_at),
    };
  });
}

/** One document with its periods, newest first. */
export async function documentDetail(
  db: Kysely<Database>,
  fleetId: number,
  id: number,
  now: number,
): Promise<DocumentDetailWire> {
  const [wire] = await documentWires(db, fleetId, [await loadDocument(db, fleetId, id)], now);
  const periods = await db
    .selectFrom('document_periods')
    .selectAll()
    .where('fleet_id', '=', fleetId)
    .where('document_id', '=', id)
    .orderBy('id', 'desc')
    .execute();
  return {
    ...wire!,
    periods: periods.map((p) => ({
      id: p.id,
      number: p.number,
      valid_from: num(p.valid_from),
      valid_to: Number(p.valid_to),
      cost: money(p.cost),
      reminded: num(p.reminded_at),
      created: Number(p.created_at),
    })),
  };
}
