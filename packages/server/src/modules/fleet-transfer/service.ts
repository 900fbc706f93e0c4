import type { FleetTransferBody, FleetTransferReply } from '@fleetkeep/core';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { importInto, publishImport } from './import.js';

/**
 * POST /api/fleets/{fid}/transfer: imports a fleet export document into fleet `fid` (
 * spec §2 `/migration/{fleetId}` and §6: admin on that fleet). One transaction; nothing is stored when
 * any part fails (DESIGN §5); a device identifier in use is refused per unit (import-devices.ts).
 */
export async function importFleet(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: FleetTransferBody,
): Promise<FleetTransferReply> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  return unitOfWork(ctx, async (trx, uow) => {
    const { reply, published } = await importInto(ctx, trx, fleet, actor, body.document, { devices: body });
    publishImport(uow, ctx, fleet, actor, published);
    return reply;
  });
}
