import type { Multipart } from '@fastify/multipart';
import {
  ErrorCode,
  type FuelAttachmentWire,
  FUEL_ATTACHMENTS_MAX as MAX_FILES,
  FUEL_ATTACHMENT_BYTES_MAX as MAX_TOTAL_BYTES,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { AppError, invalidInput, notFound } from '../../http/errors.js';
import { ATTACHMENT_OWNER as OWNER } from './load.js';
import { loadFilling, runFuelChange } from './write.js';

/**
 * Attachments of fuel fillings (spec §5 "Attachments"; PRODUCT.md "Services": any file type, stored in
 * the database, at most 20 files and 32 MB in total per service or fuel filling, error 2 beyond). They
 * share the `attachments` table and the download rules (original name, safe content type) with service
 * attachments (modules/services/attachments.ts).
 */

const listColumns = ['id', 'name', 'size', 'content_type', 'created_at as created'] as const;

export async function listAttachments(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  fillingId: number,
): Promise<{ attachments: FuelAttachmentWire[] }> {
  await requireFleet(ctx, actor, fleetId, 'fuel.view');
  await loadFilling(ctx.db.kysely, fleetId, fillingId);
  const attachments = await ctx.db.kysely
    .selectFrom('attachments')
    .select(listColumns)
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', OWNER)
    .where('owner_id', '=', fillingId)
    .orderBy('id')
    .execute();
  return { attachments };
}

export async function readAttachment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  fillingId: number,
  id: number,
) {
  await requireFleet(ctx, actor, fleetId, 'fuel.view');
  const row = await ctx.db.kysely
    .selectFrom('attachments')
    .select(['name', 'content_type', 'data'])
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', OWNER)
    .where('owner_id', '=', fillingId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Attachment not found');
  return row;
}

/** Browsers send `"`, CR and LF of a file name as %22, %0D, %0A (WHATWG multipart/form-data). */
const fileName = (raw: string) => raw.replace(/%(22|0d|0a)/gi, (m) => decodeURIComponent(m)) || 'file';

interface Received {
  name: string;
  type: string;
  data: Buffer;
}

async function heldTotals(db: Kysely<Database>, fillingId: number) {
  const held = await db
    .selectFrom('attachments')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('size').as('bytes')])
    .where('owner_type', '=', OWNER)
    .where('owner_id', '=', fillingId)
    .executeTakeFirstOrThrow();
  return { count: Number(held.n), bytes: Number(held.bytes ?? 0) };
}

/** Error 2 (spec §5, §8): over the per-filling caps. */
const overCaps = () =>
  new AppError(
    ErrorCode.tooLarge,
    `At most ${MAX_FILES} files and ${MAX_TOTAL_BYTES} bytes per fuel filling`,
  );

/**
 * Reads every part to the end (the reply never goes out over an unread body), keeping bytes only while
 * the filling stays within its caps; then all files are stored, or none.
 */
export async function uploadAttachments(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  fillingId: number,
  parts: AsyncIterable<Multipart> | undefined,
): Promise<{ attachments: FuelAttachmentWire[] }> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.manage');
  await loadFilling(ctx.db.kysely, fleetId, fillingId);
  // spec §5: a non-list input gives error 4 'Invalid input'.
  if (!parts) throw invalidInput([{ field: 'body', message: 'Expected multipart/form-data with files' }]);
  let { count, bytes } = await heldTotals(ctx.db.kysely, fillingId);
  let tooLarge = false;
  let nonFile = false;
  const files: Received[] = [];
  for await (const part of parts) {
    if (part.type !== 'file') {
      nonFile = true;
      continue;
    }
    count += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > MAX_TOTAL_BYTES || count > MAX_FILES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    }
    if (part.file.truncated) tooLarge = true;
    if (!tooLarge)
      files.push({
        name: fileName(part.filename ?? ''),
        type: part.mimetype || 'application/octet-stream',
        data: Buffer.concat(chunks),
      });
  }
  if (tooLarge) throw overCaps();
  if (nonFile || files.length === 0)
    throw invalidInput([
      { field: 'body', message: nonFile ? 'Only file parts are accepted' : 'No file uploaded' },
    ]);
  const t = now();
  const { result } = await runFuelChange(ctx, fleet, async (trx, ch) => {
    // The caps again inside the write: two uploads may have read the same totals. On PostgreSQL the
    // filling's row is locked so they take turns; SQLite runs one write at a time.
    const locked = await ctx.db.ops
      .forUpdate(
        trx
          .selectFrom('fuel_fillings')
          .select('id')
          .where('id', '=', fillingId)
          .where('fleet_id', '=', fleetId),
      )
      .executeTakeFirst();
    if (!locked) throw notFound('Fuel filling not found');
    const stored = await heldTotals(trx, fillingId);
    const adding = files.reduce((sum, f) => sum + f.data.length, 0);
    if (stored.count + files.length > MAX_FILES || stored.bytes + adding > MAX_TOTAL_BYTES) throw overCaps();
    const rows = await trx
      .insertInto('attachments')
      .values(
        files.map((f) => ({
          fleet_id: fleetId,
          owner_type: OWNER,
          owner_id: fillingId,
          name: f.name.slice(0, 255),
          content_type: f.type.slice(0, 255),
          size: f.data.length,
          data: f.data,
          created_at: t,
          creator_id: actor.userId,
        })),
      )
      .returning(listColumns)
      .execute();
    ch.updated.add(fillingId);
    return rows;
  });
  return { attachments: result };
}

export async function deleteAttachment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  fillingId: number,
  id: number,
): Promise<{ error: 0 }> {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fuel.manage');
  await runFuelChange(ctx, fleet, async (trx, ch) => {
    await loadFilling(trx, fleetId, fillingId);
    const gone = await trx
      .deleteFrom('attachments')
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', OWNER)
      .where('owner_id', '=', fillingId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw notFound('Attachment not found');
    ch.updated.add(fillingId);
  });
  return { error: 0 };
}
