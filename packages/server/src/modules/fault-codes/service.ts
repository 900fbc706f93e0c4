import {
  type CriticalFaultCodesBody,
  type CriticalFaultCodesReply,
  FAULT_CODES_LIST_MAX,
  type FaultCodeClearReply,
  type FaultCodeListReply,
  type FaultCodeWire,
  isCriticalFaultCode,
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

/** A fleet's critical codes as stored (a JSON list; anything else reads as none). */
export function parseCritical(text: string): string[] {
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** The fleet's critical codes. */
export async function criticalCodesOf(db: Kysely<Database>, fleetId: number): Promise<string[]> {
  const row = await db
    .selectFrom('fleets')
    .select('critical_fault_codes')
    .where('id', '=', fleetId)
    .executeTakeFirst();
  return row ? parseCritical(row.critical_fault_codes) : [];
}

export function faultCodeToWire(row: Row, critical: readonly string[]): FaultCodeWire {
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
    crit: isCriticalFaultCode(row.code, critical),
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
  const critical = await criticalCodesOf(ctx.db.kysely, fleetId);
  return { codes: rows.map((r) => faultCodeToWire(r, critical)) };
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
    const critical = await criticalCodesOf(trx, fleetId);
    if (row.cleared_at !== null) return { code: faultCodeToWire(row, critical) };
    await trx
      .updateTable('fault_codes')
      .set({ cleared_at: now(), cleared_by: actor.userId })
      .where('id', '=', codeId)
      .execute();
    uow.emit({ t: 'u', s: 'faultcode', fid: fleetId, d: { unitId }, by: actor.sessionId });
    const after = await query(trx, fleetId, unitId)
      .where('fault_codes.id', '=', codeId)
      .executeTakeFirstOrThrow();
    return { code: faultCodeToWire(after, critical) };
  });
}

/** GET /api/fleets/{fid}/critical-fault-codes. */
export async function getCriticalCodes(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
): Promise<CriticalFaultCodesReply> {
  await requireFleet(ctx, actor, fleetId, 'faultcode.view');
  return { codes: await criticalCodesOf(ctx.db.kysely, fleetId) };
}

/** PUT /api/fleets/{fid}/critical-fault-codes (fleet admin): the whole list; the unit pages hear it. */
export async function setCriticalCodes(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  body: CriticalFaultCodesBody,
): Promise<CriticalFaultCodesReply> {
  await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  await unitOfWork(ctx, async (trx, uow) => {
    await trx
      .updateTable('fleets')
      .set({ critical_fault_codes: JSON.stringify(body.codes) })
      .where('id', '=', fleetId)
      .execute();
    uow.emit({ t: 'u', s: 'faultcode', fid: fleetId, d: { unitId: null }, by: actor.sessionId });
  });
  return { codes: body.codes };
}
