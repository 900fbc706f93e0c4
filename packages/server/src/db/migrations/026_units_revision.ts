import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The `units` collection revision (http/etag.ts): the tag of `GET /fleets/{fid}/units`.
 * That list carries every column of a unit it shows (name, type, counters, custom fields, the in-service
 * marker, the last message and position), so any insert, update or delete of a unit bumps its fleet's
 * row; a unit that changes fleet bumps both. Telematics ingestion writes the unit row on every accepted
 * reading, so a reading changes the tag too: the list shows the new position and counters at once.
 *
 * Rows for every existing fleet, and for each new one (or a re-used id, counted on) as migration 020
 * does for its collections. SQLite: row triggers. PostgreSQL: statement triggers with transition
 * tables, one bump per fleet and statement (ingestion's group commit updates many units at once).
 */
export function unitsRevision026(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const statement of dialect === 'postgres' ? POSTGRES : SQLITE)
        await sql.raw(statement).execute(db);
    },
  };
}

const bumpEach = (select: string) =>
  `update collection_revisions set rev = rev + 1 where collection = 'units' and fleet_id in (${select});`;

const createRow = (fleet: string) =>
  `insert into collection_revisions (fleet_id, collection, rev) values (${fleet}, 'units', 1)
     on conflict (fleet_id, collection) do update set rev = collection_revisions.rev + 1;`;

const EXISTING_FLEETS = `insert into collection_revisions (fleet_id, collection, rev)
  select id, 'units', 1 from fleets where true
  on conflict (fleet_id, collection) do update set rev = collection_revisions.rev + 1`;

const SQLITE = [
  EXISTING_FLEETS,
  `create trigger fleets_units_rev_insert after insert on fleets begin ${createRow('new.id')} end`,
  `create trigger units_rev_insert after insert on units begin ${bumpEach('select new.fleet_id')} end`,
  `create trigger units_rev_update after update on units begin
     ${bumpEach('select new.fleet_id union select old.fleet_id')} end`,
  `create trigger units_rev_delete after delete on units begin ${bumpEach('select old.fleet_id')} end`,
];

const pgFunction = (name: string, select: string) =>
  `create function ${name}() returns trigger language plpgsql as $$ begin ${bumpEach(select)} return null; end $$`;

const POSTGRES = [
  EXISTING_FLEETS,
  `create function fleets_units_rev_insert() returns trigger language plpgsql as $$ begin ${createRow('new.id')} return null; end $$`,
  'create trigger fleets_units_rev_insert after insert on fleets for each row execute function fleets_units_rev_insert()',
  pgFunction('units_rev_new', 'select fleet_id from new_rows'),
  pgFunction('units_rev_old', 'select fleet_id from old_rows'),
  pgFunction('units_rev_both', 'select fleet_id from new_rows union select fleet_id from old_rows'),
  `create trigger units_rev_insert after insert on units referencing new table as new_rows
     for each statement execute function units_rev_new()`,
  `create trigger units_rev_update after update on units referencing old table as old_rows new table as new_rows
     for each statement execute function units_rev_both()`,
  `create trigger units_rev_delete after delete on units referencing old table as old_rows
     for each statement execute function units_rev_old()`,
];
