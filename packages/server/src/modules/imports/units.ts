import { type RecordRefusal, UnitImportError, type UnitImportRow } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect/index.js';
import type { FleetRow } from '../../db/schema.js';
import { breathe, turn } from '../../db/yield.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { conflict } from '../../http/errors.js';
import { placeholderDevice } from '../fleet-transfer/import-devices.js';
import { unitToWire } from '../fleets/mappers.js';
import { insertUnit } from '../fleets/unit-insert.js';

/**
 * The writer of the units import (docs/product.md "The vehicle profile"): the rows were checked by core
 * `checkImportRows` (names, device identifiers of the fleet and of the file, the profile's fields).
 * Device identifiers are unique across the installation, as in the unit editor: one that a unit of
 * another fleet has refuses its row (409, `row` the payload's index). All units are written in one
 * transaction, or none; a row without a device identifier gets a placeholder `import-…` until the
 * tracker's identifier is entered on the unit's page (as the fleet import).
 */

/** Device identifiers asked per query (SQLite caps the bound values of a statement). */
const CHUNK = 500;

/** The refusals of rows whose device identifier a unit of the installation has. */
async function devicesInUse(ctx: AppContext, rows: readonly UnitImportRow[]): Promise<RecordRefusal[]> {
  const wanted = rows.flatMap((r) => (r.uid === undefined ? [] : [r.uid]));
  const taken = new Set<string>();
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const found = await ctx.db.kysely
      .selectFrom('units')
      .select('device_id')
      .where('device_id', 'in', wanted.slice(i, i + CHUNK))
      .execute();
    for (const f of found) taken.add(f.device_id);
  }
  return rows.flatMap((r, row) =>
    r.uid !== undefined && taken.has(r.uid)
      ? [{ row, field: 'device_id', reason: UnitImportError.deviceTaken, value: r.uid }]
      : [],
  );
}

export async function writeUnits(
  ctx: AppContext,
  actor: Actor,
  fleet: Pick<FleetRow, 'id' | 'account_id' | 'fm'>,
  rows: readonly UnitImportRow[],
): Promise<number[]> {
  const refused = await devicesInUse(ctx, rows);
  if (refused.length) throw conflict(UnitImportError.deviceTaken, refused);
  const at = now();
  try {
    return await unitOfWork(ctx, async (trx, uow) => {
      const ids: number[] = [];
      for (const [i, r] of rows.entries()) {
        const body = {
          nm: r.nm,
          uid: r.uid ?? placeholderDevice(),
          ut: r.ut,
          cnm: r.cnm,
          cneh: r.cneh,
          vp: r.vp,
        };
        ids.push(await insertUnit(trx, actor, fleet, body, at));
        // A turn of the event loop every BATCH_YIELD_EVERY rows, reporting "rows written".
        await breathe(i + 1);
      }
      uow.afterCommit(async () => {
        const events = [];
        for (let i = 0; i < ids.length; i += CHUNK) {
          const created = await ctx.db.kysely
            .selectFrom('units')
            .selectAll()
            .where('id', 'in', ids.slice(i, i + CHUNK))
            .orderBy('id')
            .execute();
          for (const u of created)
            events.push({ t: 'c', s: 'avl_unit', fid: fleet.id, d: unitToWire(u) } as const);
          await turn();
        }
        return events;
      });
      return ids;
    });
  } catch (e) {
    // Another writer took a device identifier between the check and the write.
    if (isUniqueViolation(e)) throw conflict(UnitImportError.deviceTaken);
    throw e;
  }
}
