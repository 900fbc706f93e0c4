import type { TeltonikaIoMapping, UnitTypeAdminWire, UnitTypesAdminReply } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { accessDenied, notFound } from '../../http/errors.js';
import { ioMappingOf } from '../../telematics/teltonika/unit-type.js';

/**
 * Unit types' Teltonika IO mapping (DESIGN §3, Teltonika port): which IO id of a type's trackers
 * carries the total mileage and which the engine hours, for the trackers that report them elsewhere
 * than IO 16 and the ignition. Unit types are one list for the whole platform: super users only.
 */

function requireSuperUser(actor: Actor): void {
  // Platform configuration, as the map keys: never through a personal API token.
  if (!actor.su || actor.apiTokenId !== null) throw accessDenied();
}

const wireOf = (row: { id: number; name: string; teltonika_io: string | null }): UnitTypeAdminWire => {
  const mapping = ioMappingOf(row.teltonika_io);
  return { id: row.id, n: row.name, tio: { mileage: mapping.mileage ?? null, hours: mapping.hours ?? null } };
};

export async function listUnitTypes(ctx: AppContext, actor: Actor): Promise<UnitTypesAdminReply> {
  requireSuperUser(actor);
  const rows = await ctx.db.kysely.selectFrom('unit_types').selectAll().orderBy('id').execute();
  return { unit_types: rows.map(wireOf) };
}

/** Sets a unit type's mapping; trackers that connect afterwards use it (telematics/teltonika/server.ts). */
export async function setUnitTypeTeltonika(
  ctx: AppContext,
  actor: Actor,
  id: number,
  body: TeltonikaIoMapping,
): Promise<UnitTypeAdminWire> {
  requireSuperUser(actor);
  const stored = body.mileage === null && body.hours === null ? null : JSON.stringify(body);
  const row = await unitOfWork(ctx, (trx) =>
    trx
      .updateTable('unit_types')
      .set({ teltonika_io: stored })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst(),
  );
  if (!row) throw notFound('Unit type not found');
  return wireOf(row);
}
