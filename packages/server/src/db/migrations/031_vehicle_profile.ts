import type { Kysely, Migration } from 'kysely';
import { notNull } from './types.js';

/**
 * The vehicle profile of a unit (docs/product.md "The vehicle profile"; core contracts/fleets.ts
 * `vehicleProfileWire`): VIN, make, model, model year, plate, fuel type, tank capacity (integer
 * thousandths of `tank_unit`: 1 litres, 2 US gallons), tags (JSON list of texts), notes, and the unit
 * photo (`photo_id`: the id of its one row in `attachments`, owner_type 'unit'; null when none).
 * One column per statement: SQLite adds one column per ALTER TABLE.
 */
export function vehicleProfile031(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const texts = ['vin', 'make', 'model', 'plate', 'fuel_type', 'notes'];
      for (const column of texts)
        await db.schema
          .alterTable('units')
          .addColumn(column, 'text', (c) => notNull(c).defaultTo(''))
          .execute();
      await db.schema
        .alterTable('units')
        .addColumn('tags', 'text', (c) => notNull(c).defaultTo('[]'))
        .execute();
      for (const column of ['model_year', 'tank_capacity', 'tank_unit', 'photo_id'])
        await db.schema.alterTable('units').addColumn(column, 'integer').execute();
    },
  };
}
