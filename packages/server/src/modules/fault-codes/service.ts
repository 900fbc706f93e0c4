import {
  FAULT_CODES_LIST_MAX,
  type FaultCodeClearReply,
  type FaultCodeListReply,
  type FaultCodeWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { unitOfWork } from '../../events/unit-of-work.js';
import { notFound } from '../../http/errors.js';

/**
 * A unit's fault codes (core contracts/fault-codes.ts), written by ingestion (telematics/fault-codes.ts).
 * Any member reads them (`faultcode.view`); a manager clears one (`faultcode.manage`). A fleet lists the
 * rows of its own (`fleet_id`: the unit's fleet when the code was last seen).
 */

const columns = [
  'fault_codes.id',
  'fault_codes.code',
  'fault_codes.first_seen',
  'fault_codes.last_seen',
  'fault_codes.count',
  'fault_codes.cleared_at',
  'fault_codes.cleared_by',
  'users.name as by_name',
  'users.full_name as by_full_name',
] as const;

interface Row {
  id: number;
  code: string;
  first_seen: number;
  last_seen: number;
  count: number;
  cleared_at: number | null;
  cleared_by: number | null;
  by_name: string | null;
  by_full_name: string | null;
}

export function faultCodeToWire(row: Row): FaultCodeWire {
  return {
    id: row.id,
    code: row.code,
    fs: row.first_seen,
    ls: row.last_seen,
    n: row.count,
    ca: row.cleared_at,
    cb:
      row.cleared_at !== null && row.cleared_by !== null
        ? { id: row.cleared_by, nm: row.by_full_name || row.by_name || '' }
        : null,
  };
}

const query = (db: Kysely<Database>, fleetId: number, unitId: number) =>
  db
    .selectFrom('fault_codes')
    .leftJoin('users', 'users.id', 'fault_codes.cleared_by')
    .select(columns)
    .where('fault_codes.unit_id', '=', unitId)
    .where('fault_codes.fleet_id', '=', fleetId);

/** GET /api/fleets/{fid}/units/{id}/fault-codes: active first, then the most recently seen. */
export async function listFaultCodes(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
): Promise<FaultCodeListReply> {
  await requireFleet(ctx, actor, fleetId, 'faultcode.view');
  const rows: Row[] = await query(ctx.db.kysely, fleetId, unitId)
    .orderBy((eb) => eb.case().when('fault_codes.cleared_at', 'is', null).then(0).else(1).end())
    .orderBy('fault_codes.last_seen', 'desc')
    .orderBy('fault_codes.id', 'desc')
    .limit(FAULT_CODES_LIST_MAX)
    .execute();
  return { codes: rows.map(faultCodeToWire) };
}

/**
 * POST …/fault-codes/{codeId}/clear: the code is cleared now by the caller; clearing a cleared code
 * changes nothing. The unit pages hear it.
 */
export async function clearFaultCode(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  unitId: number,
  codeId: number,
): Promise<FaultCodeClearReply> {
  await requireFleet(ctx, actor, fleetId, 'faultcode.manage');
  return unitOfWork(ctx, async (trx, uow) => {
    const row = await query(trx, fleetId, unitId).where('fault_codes.id', '=', codeId).executeTakeFirst();
    if (!row) throw notFound('Fault code not found');
    if (row.cleared_at !== null) return { code: faultCodeToWire(row) };
    await trx
      .updateTable('fault_codes')
      .set({ cleared_at: now(), cleared_by: actor.userId })
      .where('id', '=', codeId)
      .execute();
    uow.emit({ t: 'u', s: 'faultcode', fid: fleetId, d: { unitId }, by: actor.sessionId });
    const after = await query(trx, fleetId, unitId)
      .where('fault_codes.id', '=', codeId)
      .executeTakeFirstOrThrow();
    return { code: faultCodeToWire(after) };
  });
}
