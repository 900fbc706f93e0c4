import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Per-fleet, per-collection revisions for conditional reads (http/etag.ts): one row per
 * fleet and collection whose `rev` grows with every committed change of what the collection's replies
 * show, so that a list's `ETag` is read from one row and `If-None-Match` answers 304 without the rows.
 *
 * Kept by triggers, so that every writer (the services module, the status engine, imports, fleet
 * transfer, object removal, telematics ingestion) bumps it in its own transaction without having to
 * remember it:
 *
 * - `services`: any insert, update or delete of `services`, of `service_line_items` (through the
 *   service's fleet; on SQLite by `replaceLines` instead of row triggers, see below) and of service
 *   `attachments` (the reply's `ats` count); a service or attachment that
 *   changes fleet bumps both fleets.
 * - `owners`: the live state the service wire carries of its object (`current_mileage`,
 *   `current_engine_hours`, `ins`): units' counters and in-service marker, drivers' and trailers' marker,
 *   an object that changes fleet or is deleted. Kept apart from `services` so that ingestion, which moves
 *   counters on every reading, contends with service writers on no common row.
 *
 * No foreign key to `fleets`: a row outlives its fleet, so that a re-used fleet id never restarts at a
 * revision an old tag could match. SQLite has row triggers only; PostgreSQL uses statement triggers with
 * transition tables for the bulk writers (one bump per fleet and statement, whatever the rows) and row
 * triggers with a `when` condition for the objects (one row per ingestion update).
 */
export function collectionRevisions020(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('collection_revisions')
        .addColumn('fleet_id', 'integer', (c) => c.notNull())
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('rev', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('collection_revisions_pk', ['fleet_id', 'collection'])
        .execute();
      for (const statement of dialect === 'postgres' ? POSTGRES : SQLITE)
        await sql.raw(statement).execute(db);
    },
  };
}

const COLLECTIONS = ['services', 'owners'];

/**
 * The change of what a collection shows: a plain update of its fleet's row (an upsert costs an insert
 * attempt per row written; measured about twice the cost in the import's row triggers). The rows exist
 * from the fleet's creation on (below); a re-used fleet id goes on counting from its old revision.
 */
const bump = (fleet: string, collection: string) =>
  `update collection_revisions set rev = rev + 1 where fleet_id = ${fleet} and collection = '${collection}';`;

/** The same for the fleets of a set of rows (`select fleet_id … from …`), one bump per fleet. */
const bumpEach = (select: string, collection: string) =>
  `update collection_revisions set rev = rev + 1 where collection = '${collection}' and fleet_id in (${select});`;

/** A new fleet's rows (or a re-used id's, counted on). */
const createRows = (fleet: string) =>
  `insert into collection_revisions (fleet_id, collection, rev) values ${COLLECTIONS.map((c) => `(${fleet}, '${c}', 1)`).join(', ')}
     on conflict (fleet_id, collection) do update set rev = collection_revisions.rev + 1;`;

const EXISTING_FLEETS = `insert into collection_revisions (fleet_id, collection, rev)
  select f.id, c.collection, 1 from fleets f cross join (${COLLECTIONS.map((c) => `select '${c}' as collection`).join(' union all ')}) c`;

const OWNER_MOVED = 'new.fleet_id is not old.fleet_id';
const UNIT_CHANGED = `old.mileage is not new.mileage or old.engine_hours is not new.engine_hours or old.ins is not new.ins or ${OWNER_MOVED}`;
const PERSON_CHANGED = `old.ins is not new.ins or ${OWNER_MOVED}`;

function sqliteTrigger(name: string, event: string, table: string, body: string[], when = '') {
  return `create trigger ${name} after ${event} on ${table}${when ? ` when ${when}` : ''} begin ${body.join(' ')} end`;
}

const SQLITE = [
  EXISTING_FLEETS,
  sqliteTrigger('fleets_rev_insert', 'insert', 'fleets', [createRows('new.id')]),
  sqliteTrigger('services_rev_insert', 'insert', 'services', [bump('new.fleet_id', 'services')]),
  sqliteTrigger('services_rev_update', 'update', 'services', [
    bump('new.fleet_id', 'services'),
    bumpEach(`select old.fleet_id as fleet_id where ${OWNER_MOVED}`, 'services'),
  ]),
  sqliteTrigger('services_rev_delete', 'delete', 'services', [bump('old.fleet_id', 'services')]),
  // No row triggers on `service_line_items` on SQLite: one per line made a 10,000-service import 4.6×
  // slower. Every line writer writes its service row in the same transaction (create, engine, fleet
  // transfer, demo), except `replaceLines` of an update, which bumps the revision itself
  // (modules/services/effects.ts).
  ...['insert', 'update', 'delete'].map((event) =>
    sqliteTrigger(`service_attachments_rev_${event}`, event, 'attachments', [
      ...(event === 'delete'
        ? []
        : [bumpEach(`select new.fleet_id as fleet_id where new.owner_type = 'service'`, 'services')]),
      ...(event === 'insert'
        ? []
        : [bumpEach(`select old.fleet_id as fleet_id where old.owner_type = 'service'`, 'services')]),
    ]),
  ),
  ...['units', 'drivers', 'trailers'].flatMap((table) => [
    sqliteTrigger(
      `${table}_owners_rev_update`,
      'update',
      table,
      [bumpEach('select new.fleet_id as fleet_id union select old.fleet_id', 'owners')],
      table === 'units' ? UNIT_CHANGED : PERSON_CHANGED,
    ),
    sqliteTrigger(`${table}_owners_rev_delete`, 'delete', table, [
      bumpEach('select old.fleet_id as fleet_id', 'owners'),
    ]),
  ]),
];

/** A PostgreSQL trigger function that bumps `collection` for the fleets of `select`. */
const pgFunction = (name: string, select: string, collection: string) =>
  `create function ${name}() returns trigger language plpgsql as $$ begin ${bumpEach(select, collection)} return null; end $$`;

/** Statement triggers of one table: `sources(event)` lists the transition tables' fleet queries. */
function pgStatementTriggers(table: string, select: (rows: string) => string) {
  return [
    pgFunction(`${table}_rev_new`, select('new_rows'), 'services'),
    pgFunction(`${table}_rev_old`, select('old_rows'), 'services'),
    pgFunction(`${table}_rev_both`, `${select('new_rows')} union ${select('old_rows')}`, 'services'),
    `create trigger ${table}_rev_insert after insert on ${table} referencing new table as new_rows
       for each statement execute function ${table}_rev_new()`,
    `create trigger ${table}_rev_update after update on ${table} referencing old table as old_rows new table as new_rows
       for each statement execute function ${table}_rev_both()`,
    `create trigger ${table}_rev_delete after delete on ${table} referencing old table as old_rows
       for each statement execute function ${table}_rev_old()`,
  ];
}

const PG_OWNER_MOVED = 'new.fleet_id is distinct from old.fleet_id';

const POSTGRES = [
  EXISTING_FLEETS,
  `create function fleets_rev_insert() returns trigger language plpgsql as $$ begin ${createRows('new.id')} return null; end $$`,
  'create trigger fleets_rev_insert after insert on fleets for each row execute function fleets_rev_insert()',
  ...pgStatementTriggers('services', (rows) => `select fleet_id from ${rows}`),
  // A line item whose service is gone (deleted in the same statement) was counted by that delete.
  ...pgStatementTriggers(
    'service_line_items',
    (rows) => `select s.fleet_id from ${rows} r join services s on s.id = r.service_id`,
  ),
  ...pgStatementTriggers(
    'attachments',
    (rows) => `select fleet_id from ${rows} where owner_type = 'service'`,
  ),
  `create function owners_rev_update() returns trigger language plpgsql as $$ begin
     ${bumpEach('select new.fleet_id as fleet_id union select old.fleet_id', 'owners')} return null; end $$`,
  `create function owners_rev_delete() returns trigger language plpgsql as $$ begin
     ${bumpEach('select old.fleet_id as fleet_id', 'owners')} return null; end $$`,
  ...['units', 'drivers', 'trailers'].flatMap((table) => [
    `create trigger ${table}_owners_rev_update after update on ${table} for each row when (${
      table === 'units'
        ? `old.mileage is distinct from new.mileage or old.engine_hours is distinct from new.engine_hours or old.ins is distinct from new.ins or ${PG_OWNER_MOVED}`
        : `old.ins is distinct from new.ins or ${PG_OWNER_MOVED}`
    }) execute function owners_rev_update()`,
    `create trigger ${table}_owners_rev_delete after delete on ${table} for each row execute function owners_rev_delete()`,
  ]),
];
