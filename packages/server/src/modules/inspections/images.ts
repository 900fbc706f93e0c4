import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Photos and signatures of inspections: rows of the generic `attachments` table with owner type
 * 'inspection' (modules/attachments/store.ts). They arrive as data URLs inside the submit or the
 * certification, so that the record and its images are written in one transaction: an inspection is
 * never stored without its signature.
 */
export const INSPECTION_OWNER = 'inspection';

const DATA_URL = /^data:(image\/(png|jpeg|webp));base64,(.*)$/s;
const EXTENSIONS: Record<string, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** The content type and bytes of a data URL (the contract checked its form). */
export function decodeImage(dataUrl: string): { type: string; ext: string; data: Buffer } {
  const match = DATA_URL.exec(dataUrl);
  if (!match) throw new Error('not an image data URL');
  return { type: match[1]!, ext: EXTENSIONS[match[2]!]!, data: Buffer.from(match[3]!, 'base64') };
}

/** Stores one image of an inspection; returns the attachment id. */
export async function storeImage(
  trx: Kysely<Database>,
  fleetId: number,
  inspectionId: number,
  name: string,
  dataUrl: string,
  userId: number,
  at: number,
): Promise<number> {
  const image = decodeImage(dataUrl);
  const row = await trx
    .insertInto('attachments')
    .values({
      fleet_id: fleetId,
      owner_type: INSPECTION_OWNER,
      owner_id: inspectionId,
      name: `${name}.${image.ext}`,
      content_type: image.type,
      size: image.data.length,
      data: image.data,
      created_at: at,
      creator_id: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes the images of inspections (with the inspections themselves). */
export async function deleteImages(trx: Kysely<Database>, fleetId: number, inspectionIds: number[]) {
  if (inspectionIds.length === 0) return;
  await trx
    .deleteFrom('attachments')
    .where('fleet_id', '=', fleetId)
    .where('owner_type', '=', INSPECTION_OWNER)
    .where('owner_id', 'in', inspectionIds)
    .execute();
}
