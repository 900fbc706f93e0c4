import { Readable } from 'node:stream';
import type { FleetTransferCsvCollection, FleetTransferDocument } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { requireFleet } from '../../auth/access.js';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { collectionCsvText } from './export-csv.js';
import { documentText } from './export-json.js';

export { isFinished } from './records.js';

/**
 * GET /api/fleets/{fid}/export: the whole fleet as one JSON document (core
 * contracts/fleet-transfer.ts), and one collection of it as CSV, both streamed as they are read
 * (export-json.ts, export-csv.ts). Values are written as stored, so an import into an empty fleet
 * gives the same document back (the round trip, modulo ids).
 */

/** A file name part from the fleet name: letters, digits and dashes. */
export function fileStem(fleetName: string): string {
  const stem = fleetName
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return stem || 'fleet';
}

/** A text generator as a byte stream that pulls the next piece only when the reader wants more. */
const streamOf = (text: AsyncGenerator<string>) =>
  Readable.from(
    (async function* () {
      for await (const piece of text) if (piece) yield Buffer.from(piece);
    })(),
    { objectMode: false },
  );

export async function exportFleet(ctx: AppContext, actor: Actor, fleetId: number) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  return {
    name: `${fileStem(fleet.name)}-export.json`,
    stream: streamOf(documentText(ctx.db.kysely, fleetId)),
  };
}

export async function exportCollectionCsv(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  collection: FleetTransferCsvCollection,
) {
  const { fleet } = await requireFleet(ctx, actor, fleetId, 'fleet.admin');
  return {
    name: `${fileStem(fleet.name)}-${collection}.csv`,
    stream: streamOf(collectionCsvText(ctx.db.kysely, fleetId, collection)),
  };
}

/** The whole document in memory (tests and tools; the routes stream it). */
export async function buildDocument(db: Kysely<Database>, fleetId: number): Promise<FleetTransferDocument> {
  let text = '';
  for await (const piece of documentText(db, fleetId)) text += piece;
  return JSON.parse(text) as FleetTransferDocument;
}
