import { createHash, timingSafeEqual } from 'node:crypto';
import type { OsmandReply, TelematicsBatchReply } from '@fleetkeep/core';
import type { FastifyRequest } from 'fastify';
import { requireFleet } from '../auth/access.js';
import type { Actor } from '../auth/actor.js';
import { type AppContext, now } from '../context.js';
import { AppError, accessDenied, invalidInput, notFound, wrongToken } from '../http/errors.js';
import { type BatchRowResult, ingestBatch, ingestReading } from './ingest.js';
import { parseOsmand, type Reading } from './reading.js';
import { ACCESS_DENIED, UNKNOWN_DEVICE } from './store.js';
import { parseTraccarForward } from './traccar.js';

/**
 * What a device is told when its reading is not stored, whatever the cause: a refusal of the counter
 * rules and an unknown identifier get the same answer, so that the ingestion does not
 * tell which identifiers exist. The operator finds the reason in the log (warn level) and, for a known
 * unit, in its meter history.
 */
export const READING_REFUSED = 'Reading refused';

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A body that arrived as text: JSON when it looks like it, else a form (`a=1&b=2`). */
function textBody(body: string): Record<string, unknown> {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    try {
      return record(JSON.parse(trimmed));
    } catch {
      throw invalidInput(undefined, 'Invalid json');
    }
  }
  return Object.fromEntries(new URLSearchParams(trimmed));
}

/** Fields of the query string and of the body (form or JSON) together; the body wins on a clash. */
export function osmandInput(query: unknown, body: unknown): Record<string, unknown> {
  return { ...record(query), ...(typeof body === 'string' ? textBody(body) : record(body)) };
}

/**
 * One OsmAnd message from a device, authenticated by its identifier (DESIGN §3). Unparsable input is a
 * 400 and a unit of a suspended account a 403 (logged, nothing stored). A reading the counter rules
 * refuse (kept in the unit's meter history) and a reading of an unknown identifier (kept in the ingest
 * log) are both logged and answered alike, 200 `{ok: false, reason: 'Reading refused'}`.
 */
export async function ingestOsmand(ctx: AppContext, input: Record<string, unknown>): Promise<OsmandReply> {
  const t = now();
  const parsed = parseOsmand(input, t);
  if (!parsed.ok) throw invalidInput(parsed.details, parsed.reason);
  const outcome = await ingestReading(ctx, { ...parsed.reading, source: 'osmand' }, t);
  if (outcome.status === 'accepted') return { ok: true };
  // Refused and not stored while the unit's account is suspended: like an unknown
  // device the device is told with an error status, here 403 `{error: 7, reason}`.
  if (outcome.status === 'suspended') throw accessDenied(outcome.reason);
  return { ok: false, reason: READING_REFUSED };
}

/** What a Traccar server is told when the device it forwards is no unit here. */
export const TRACCAR_UNKNOWN_DEVICE = 'Unknown device';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The forwarding token check of `/api/ingest/traccar` (`TRACCAR_FORWARD_TOKEN`, sent by Traccar's
 * `forward.header` as `Authorization: Bearer <token>`), before the body is read: missing or wrong is
 * 401 `{error: 8}`. The comparison takes the same time wherever the tokens differ (digests of equal
 * length compared in constant time).
 */
export function checkForwardToken(ctx: AppContext, req: FastifyRequest): void {
  const expected = ctx.config.traccarForwardToken;
  if (expected === undefined) return;
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer[ \t]+(.+)$/i.exec(header.trim());
  if (!match) throw wrongToken('Forward token required');
  if (!timingSafeEqual(digest(match[1]!.trim()), digest(expected))) throw wrongToken('Wrong forward token');
}

/**
 * One position of a Traccar server's forwarding (DESIGN §3; telematics/traccar.ts), into the same
 * group commit as OsmAnd. Unlike a device, Traccar is told that a device is no unit here (404 `{error:
 * 5}`): it is the operator's own server, its log shows the identifier to add, and with its retries on it
 * gives up after `forward.retry.count`. A reading the counter rules refuse is answered as for OsmAnd
 * (200 `{ok: false}`): sent again, it would be refused again. A unit of a suspended account is a 403.
 */
export async function ingestTraccar(ctx: AppContext, body: unknown): Promise<OsmandReply> {
  const t = now();
  const parsed = parseTraccarForward(body);
  if (!parsed.ok) throw invalidInput(parsed.details, parsed.reason);
  const outcome = await ingestReading(ctx, { ...parsed.reading, source: 'traccar' }, t);
  if (outcome.status === 'accepted') return { ok: true };
  if (outcome.status === 'unknown') throw notFound(TRACCAR_UNKNOWN_DEVICE);
  if (outcome.status === 'suspended') throw accessDenied(outcome.reason);
  return { ok: false, reason: READING_REFUSED };
}

/** Fleets of the given devices on which the actor has admin rights; checked once per fleet. */
async function administeredFleets(ctx: AppContext, actor: Actor, deviceIds: string[]): Promise<Set<number>> {
  const allowed = new Set<number>();
  if (deviceIds.length === 0) return allowed;
  const rows = await ctx.db.kysely
    .selectFrom('units')
    .select('fleet_id')
    .distinct()
    .where('device_id', 'in', deviceIds)
    .where('fleet_id', 'is not', null)
    .execute();
  for (const { fleet_id } of rows) {
    if (fleet_id === null) continue;
    try {
      await requireFleet(ctx, actor, fleet_id, 'telematics.ingest');
      allowed.add(fleet_id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return allowed;
}

/**
 * POST /api/ingest/batch: readings of many units from a gateway, in order. Each row stands alone and
 * needs admin rights on its unit's fleet (DESIGN §3); a unit outside any fleet only for a super user.
 */
export async function ingestBatchAs(
  ctx: AppContext,
  actor: Actor,
  rows: Record<string, unknown>[],
): Promise<TelematicsBatchReply> {
  const t = now();
  const results: BatchRowResult[] = [];
  const readings: Reading[] = [];
  const rowOf: number[] = [];
  rows.forEach((row, i) => {
    const parsed = parseOsmand(row, t);
    if (parsed.ok) {
      readings.push(parsed.reading);
      rowOf.push(i);
    }
    results.push(parsed.ok ? { i, ok: true } : { i, ok: false, reason: parsed.reason });
  });
  const allowed = await administeredFleets(ctx, actor, [...new Set(readings.map((r) => r.deviceId))]);
  const outcomes = await ingestBatch(ctx, readings, t, {
    allowFleet: (fleetId) => (fleetId === null ? actor.su : allowed.has(fleetId)),
    source: 'import',
  });
  // A device of no fleet the actor administers answers as an unknown one, both as a refused reading
  //: a gateway cannot probe which identifiers exist elsewhere.
  const hidden = new Set<string>([UNKNOWN_DEVICE, ACCESS_DENIED]);
  for (const outcome of outcomes) {
    const i = rowOf[outcome.i]!;
    results[i] = {
      ...outcome,
      ...(outcome.reason !== undefined && hidden.has(outcome.reason) && { reason: READING_REFUSED }),
      i,
    };
  }
  return { results };
}
