import type { Multipart } from '@fastify/multipart';
import type { FleetNeedName, ServiceAttachmentWire } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { type FleetAccess, requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { invalidInput, notFound, tooLarge } from '../../http/errors.js';

/**
 * Files of a record in the generic `attachments` table, one implementation for every owner type
 * (services: owner_type 'service', fuel fillings: 'fuel'). spec §5 "Attachments" and PRODUCT.md
 * "Services": any file type, stored in the database, at most a number of files and a total size per
 * owner (error 2 beyond, spec §8), a non-list input gives error 4; downloaded with the original name and
 * a safe content type.
 */

/** The wire shape of one attachment; fuel fillings use the same schema (core contracts/fuel.ts). */
export type AttachmentWire = ServiceAttachmentWire;

/** One transaction of the owner's module that marks the owner changed and publishes it after commit. */
export type OwnerWrite = <T>(write: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;

/** What the store needs to know about the records that own files. */
export interface AttachmentOwner {
  /** `owner_type` of the rows in `attachments`. */
  type: string;
  /** Names the owner in the error-2 message: "… bytes per service". */
  noun: string;
  /** The per-owner caps (spec §5; the limits of the core contract). */
  maxFiles: number;
  maxBytes: number;
  /**
   * An upload replaces the owner's files (a one-file owner: the unit photo): the new file is received in
   * full first, then the old ones are deleted and the new one stored in the same transaction, so a failed
   * upload leaves the old file in place. Without it, an upload adds files within the caps.
   */
  replaces?: boolean;
  /** Content types accepted (e.g. images only for a unit photo); any type when absent. */
  types?: readonly string[];
  /** The need to list and download (spec §6). */
  view: FleetNeedName;
  /** Throws 404 when the owner is not in the fleet. */
  load(db: Kysely<Database>, fleetId: number, ownerId: number): Promise<unknown>;
  /**
   * Throws the owner's 404 when the actor may not see it although it is in the fleet (an issue of a unit
   * outside a driver's reach, auth/reach.ts); asked by the list and the download after `load`.
   */
  visible?(ctx: AppContext, actor: Actor, access: FleetAccess, ownerId: number): Promise<void>;
  /**
   * Checks that the actor may change the owner's files and that the owner exists (before any body is
   * read); returns the owner's write.
   */
  editable(ctx: AppContext, actor: Actor, fleetId: number, ownerId: number): Promise<OwnerWrite>;
  /**
   * First step of an upload's write: locks the owner's row, so that two uploads check the caps in turn on
   * PostgreSQL (SQLite runs one write at a time).
   */
  lock(ctx: AppContext, trx: Kysely<Database>, fleetId: number, ownerId: number): Promise<void>;
}

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

/** Browsers send `"`, CR and LF of a file name as %22, %0D, %0A (WHATWG multipart/form-data). */
const fileName = (raw: string) => raw.replace(/%(22|0d|0a)/gi, (m) => decodeURIComponent(m)) || 'file';

const listColumns = ['id', 'name', 'size', 'content_type', 'created_at as created'] as const;

interface Received {
  name: string;
  type: string;
  data: Buffer;
}

/** The list, download, upload and delete of one owner type's files. */
export function attachmentStore(owner: AttachmentOwner) {
  const { type, maxFiles, maxBytes } = owner;

  /** The number and total size of the files an owner holds. */
  async function heldTotals(db: Kysely<Database>, ownerId: number) {
    const held = await db
      .selectFrom('attachments')
      .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('size').as('bytes')])
      .where('owner_type', '=', type)
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    return { count: Number(held.n), bytes: Number(held.bytes ?? 0) };
  }

  /** Error 2 (spec §5, §8): over the per-owner caps. */
  const overCaps = () => tooLarge(`At most ${maxFiles} files and ${maxBytes} bytes per ${owner.noun}`);

  /**
   * Reads every part to the end (so the reply is never sent over an unread body), keeping bytes only
   * while the owner stays within its caps.
   */
  async function receive(parts: AsyncIterable<Multipart>, held: { count: number; bytes: number }) {
    let { count, bytes } = held;
    let tooLarge = false;
    let nonFile = false;
    let wrongType = false;
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
        if (bytes > maxBytes || count > maxFiles) tooLarge = true;
        if (!tooLarge) chunks.push(chunk);
      }
      if (part.file.truncated) tooLarge = true;
      const accepted = !owner.types || owner.types.includes(safeContentType(part.mimetype || ''));
      if (!accepted) wrongType = true;
      else if (!tooLarge)
        files.push({
          name: fileName(part.filename ?? ''),
          type: part.mimetype || 'application/octet-stream',
          data: Buffer.concat(chunks),
        });
    }
    if (tooLarge) throw overCaps();
    if (wrongType)
      throw invalidInput([{ field: 'body', message: `Accepted file types: ${owner.types?.join(', ')}` }]);
    // spec §5: a non-list input gives error 4 'Invalid input'.
    if (nonFile || files.length === 0)
      throw invalidInput([
        { field: 'body', message: nonFile ? 'Only file parts are accepted' : 'No file uploaded' },
      ]);
    return files;
  }

  return {
    /** The caps, for the multipart limits of the routes. */
    caps: { maxFiles, maxBytes },

    async list(
      ctx: AppContext,
      actor: Actor,
      fleetId: number,
      ownerId: number,
    ): Promise<{ attachments: AttachmentWire[] }> {
      const access = await requireFleet(ctx, actor, fleetId, owner.view);
      await owner.load(ctx.db.kysely, fleetId, ownerId);
      await owner.visible?.(ctx, actor, access, ownerId);
      const attachments = await ctx.db.kysely
        .selectFrom('attachments')
        .select(listColumns)
        .where('fleet_id', '=', fleetId)
        .where('owner_type', '=', type)
        .where('owner_id', '=', ownerId)
        .orderBy('id')
        .execute();
      return { attachments };
    },

    async read(ctx: AppContext, actor: Actor, fleetId: number, ownerId: number, id: number) {
      const access = await requireFleet(ctx, actor, fleetId, owner.view);
      if (owner.visible) {
        await owner.load(ctx.db.kysely, fleetId, ownerId);
        await owner.visible(ctx, actor, access, ownerId);
      }
      const row = await ctx.db.kysely
        .selectFrom('attachments')
        .select(['name', 'content_type', 'data'])
        .where('fleet_id', '=', fleetId)
        .where('owner_type', '=', type)
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) throw notFound('Attachment not found');
      return row;
    },

    /** All files of the request are stored, or none. */
    async upload(
      ctx: AppContext,
      actor: Actor,
      fleetId: number,
      ownerId: number,
      parts: AsyncIterable<Multipart> | undefined,
    ): Promise<{ attachments: AttachmentWire[] }> {
      const write = await owner.editable(ctx, actor, fleetId, ownerId);
      if (!parts) throw invalidInput([{ field: 'body', message: 'Expected multipart/form-data with files' }]);
      const none = { count: 0, bytes: 0 };
      const files = await receive(parts, owner.replaces ? none : await heldTotals(ctx.db.kysely, ownerId));
      const t = now();
      const attachments = await write(async (trx) => {
        // The caps again, inside the write: two uploads read the same totals before either stored its files.
        await owner.lock(ctx, trx, fleetId, ownerId);
        if (owner.replaces)
          await trx
            .deleteFrom('attachments')
            .where('fleet_id', '=', fleetId)
            .where('owner_type', '=', type)
            .where('owner_id', '=', ownerId)
            .execute();
        const stored = owner.replaces ? none : await heldTotals(trx, ownerId);
        const adding = files.reduce((sum, f) => sum + f.data.length, 0);
        if (stored.count + files.length > maxFiles || stored.bytes + adding > maxBytes) throw overCaps();
        return trx
          .insertInto('attachments')
          .values(
            files.map((f) => ({
              fleet_id: fleetId,
              owner_type: type,
              owner_id: ownerId,
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
      });
      return { attachments };
    },

    async remove(
      ctx: AppContext,
      actor: Actor,
      fleetId: number,
      ownerId: number,
      id: number,
    ): Promise<{ error: 0 }> {
      const write = await owner.editable(ctx, actor, fleetId, ownerId);
      await write(async (trx) => {
        const gone = await trx
          .deleteFrom('attachments')
          .where('fleet_id', '=', fleetId)
          .where('owner_type', '=', type)
          .where('owner_id', '=', ownerId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(gone.numDeletedRows) === 0) throw notFound('Attachment not found');
      });
      return { error: 0 };
    },
  };
}
