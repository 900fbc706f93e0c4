import type { Kysely, Migration } from 'kysely';

/**
 * A unit type's Teltonika IO mapping (core contracts/telematics.ts `teltonikaIoMapping`): JSON text,
 * null for none. Read when a tracker connects (telematics/teltonika/unit-type.ts).
 */
export function unitTypeTeltonikaIo029(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('unit_types').addColumn('teltonika_io', 'text').execute();
    },
  };
}
