import type { Multipart } from '@fastify/multipart';
import {
  ErrorCode,
  SERVICE_ATTACHMENTS_MAX as MAX_FILES,
  SERVICE_ATTACHMENT_BYTES_MAX as MAX_TOTAL_BYTES,
  type ServiceAttachmentWire,
} from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { AppError, invalidInput, notFound } from '../../http/errors.js';
import { runChange } from './effects.js';
import { isArchived } from './rules.js';
import { loadService } from './service.js';

/**
 * Service attachments (PRODUCT.md "Services"; spec §5 "Attachments"): any file type, stored in the
 * database, at most 20 files and 32 MB in total per service (error 2 beyond), downloaded with the
 * original name and a safe content type.
 */
const OWNER = 'service';

/** Types a browser may render inline without risk; everything else downloads as octet-stream. */
const SAFE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

export function safeContentType(type: string): string {
  const base = type.split(';')[0]!.trim().toLowerCase();
  return SAFE_TYPES.has(base) ? base : 'application/octet-stream';
}

/** `attachment` with an ASCII fallback and the UTF-8 name of RFC 5987/6266. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Open services need manageService; archived ones archiveEdit as well (PRODUCT.md "Services"). */
async function requireEditable(ctx: AppContext, actor: Actor, fleetId: number, serviceId: number) {
  await requireFleet(ctx, actor, fleetId, 'service.manage');
  const service = await loadService(ctx.db.kysely, fleetId, serviceId);
  if (isArchived(service.f)) await requireFleet(ctx, actor, fleetId, 'archive.edit');
  return service;
}

const listColumns = ['id', 'name', 'size', 'content_type', 'created_at as created'] as const;

export async function listAttachments(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  serviceId: number,
): Promise<{ attachments: ServiceAttachmentWire[] }> {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  await loadService(ctx.db.kysely, fleetId, serviceId);
  const attachments = await ctx.db.kysely
    .selectFrom('attachments')
    .select(listColumns)
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', OWNER)
    .where('owner_id', '=', serviceId)
    .orderBy('id')
    .execute();
  return { attachments };
}

export async function readAttachment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  serviceId: number,
  id: number,
) {
  await requireFleet(ctx, actor, fleetId, 'service.view');
  const row = await ctx.db.kysely
    .selectFrom('attachments')
    .select(['name', 'content_type', 'data'])
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', OWNER)
    .where('owner_id', '=', serviceId)
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

/** The number and total size of the files a service holds. */
async function heldTotals(db: Kysely<Database>, serviceId: number) {
  const held = await db
    .selectFrom('attachments')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('size').as('bytes')])
    .where('owner_type', '=', OWNER)
    .where('owner_id', '=', serviceId)
    .executeTakeFirstOrThrow();
  return { count: Number(held.n), bytes: Number(held.bytes ?? 0) };
}

/** Error 2 (PRODUCT.md "Services"): over the per-service caps. */
const overCaps = () =>
  new AppError(ErrorCode.tooLarge, `At most ${MAX_FILES} files and ${MAX_TOTAL_BYTES} bytes per service`);

/**
 * Reads every part to the end (so the reply is never sent over an unread body), keeping bytes only
 * while the service stays within its caps; then all files are stored, or none.
 */
export async function uploadAttachments(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  serviceId: number,
  parts: AsyncIterable<Multipart> | undefined,
): Promise<{ attachments: ServiceAttachmentWire[] }> {
  await requireEditable(ctx, actor, fleetId, serviceId);
  if (!parts) throw invalidInput([{ field: 'body', message: 'Expected multipart/form-data with files' }]);
  let { count, bytes } = await heldTotals(ctx.db.kysely, serviceId);
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
  const { result } = await runChange(ctx, fleetId, async (trx, ch) => {
    // The caps again, inside the write: two uploads read the same totals before either stored its files.
    // On PostgreSQL the service row is locked so they take turns; SQLite runs one write at a time.
    await ctx.db.ops.forUpdate(trx.selectFrom('services').select('id').where('id', '=', serviceId)).execute();
    const stored = await heldTotals(trx, serviceId);
    const adding = files.reduce((sum, f) => sum + f.data.length, 0);
    if (stored.count + files.length > MAX_FILES || stored.bytes + adding > MAX_TOTAL_BYTES) throw overCaps();
    const rows = await trx
      .insertInto('attachments')
      .values(
        files.map((f) => ({
          fleet_id: fleetId,
          owner_type: OWNER,
          owner_id: serviceId,
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
    ch.updated.add(serviceId);
    return rows;
  });
  return { attachments: result };
}

export async function deleteAttachment(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  serviceId: number,
  id: number,
): Promise<{ error: 0 }> {
  await requireEditable(ctx, actor, fleetId, serviceId);
  await runChange(ctx, fleetId, async (trx, ch) => {
    const gone = await trx
      .deleteFrom('attachments')
      .where('fleet_id', '=', fleetId)
      .where('owner_type', '=', OWNER)
      .where('owner_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw notFound('Attachment not found');
    ch.updated.add(serviceId);
  });
  return { error: 0 };
}
