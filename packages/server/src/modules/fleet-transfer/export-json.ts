import { FLEET_TRANSFER_FORMAT, FLEET_TRANSFER_VERSION } from '@fleetkeep/core';
import type { Kysely } from 'kysely';
import { now } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { issuePages } from './issues.js';
import { cutOf } from './pages.js';
import {
  assignmentPages,
  attachmentData,
  correctionPages,
  fieldPages,
  fuelPages,
  intervalPages,
  libraryPages,
  personPages,
  readingPages,
  type Source,
  servicePages,
  setupPages,
  unitPagesWithFiles,
  type WithFiles,
} from './readers.js';
import {
  inspectionFormPages,
  inspectionPages,
  vehicleAssignmentPages,
  workOrderPages,
} from './workshop-export.js';

/**
 * The fleet export document (core contracts/fleet-transfer.ts) written as a stream of JSON text (issue
 * 12: memory stays flat for a large fleet): each collection is read page by page and written as it is
 * read, each attachment's bytes are read and written as base64 one file at a time. The generator runs
 * only as fast as the reader pulls (Readable.from: backpressure), so a slow download reads slowly.
 */

type Db = Kysely<Database>;
const json = JSON.stringify;

/** Base64 in slices of whole 3-byte groups, so that the slices join into one valid string. */
const B64_SLICE = 3 * 256 * 1024;

/** `,"key":[…]` of one collection whose pages are plain records. */
async function* plain<T>(key: string, src: AsyncGenerator<T[]>): AsyncGenerator<string> {
  yield `,${json(key)}:[`;
  let first = true;
  for await (const rows of src) {
    if (rows.length === 0) continue;
    yield (first ? '' : ',') + rows.map((r) => json(r)).join(',');
    first = false;
  }
  yield ']';
}

/** `,"key":[…]` of services or fuel fillings: each record, then its attachments' bytes one by one. */
async function* withAttachments<T extends object>(
  db: Db,
  key: string,
  src: AsyncGenerator<WithFiles<T>[]>,
): AsyncGenerator<string> {
  yield `,${json(key)}:[`;
  let first = true;
  for await (const rows of src) {
    let text = '';
    for (const { record, files } of rows) {
      text += `${first ? '' : ','}${json(record).slice(0, -1)},"attachments":[`;
      first = false;
      for (const [i, f] of files.entries()) {
        const head = { name: f.name, content_type: f.content_type, created_at: Number(f.created_at) };
        yield `${text}${i ? ',' : ''}${json(head).slice(0, -1)},"data":"`;
        text = '';
        const data = Buffer.from(await attachmentData(db, f.id));
        for (let at = 0; at < data.length; at += B64_SLICE)
          yield data.subarray(at, at + B64_SLICE).toString('base64');
        yield '"}';
      }
      text += ']}';
    }
    if (text) yield text;
  }
  yield ']';
}

/** The document of fleet `fid` as JSON text, piece by piece (no permission check: the caller's). */
export async function* documentText(db: Db, fid: number): AsyncGenerator<string> {
  const fleet = await db.selectFrom('fleets').selectAll().where('id', '=', fid).executeTakeFirstOrThrow();
  const src: Source = { db, fid, cut: await cutOf(db) };
  const head = {
    format: FLEET_TRANSFER_FORMAT,
    version: FLEET_TRANSFER_VERSION,
    exported_at: now(),
    fleet: { name: fleet.name, tz: fleet.tz, cur: fleet.cur, ms: fleet.ms, fm: fleet.fm },
  };
  yield json(head).slice(0, -1);
  yield* withAttachments(db, 'units', unitPagesWithFiles(src));
  yield* plain('drivers', personPages(src, 'drivers'));
  yield* plain('trailers', personPages(src, 'trailers'));
  yield* plain('custom_fields', fieldPages(src));
  yield* plain('line_items', libraryPages(src));
  yield* plain('intervals', intervalPages(src));
  yield* plain('assignments', assignmentPages(src));
  yield* withAttachments(db, 'services', servicePages(src, false, true));
  yield* withAttachments(db, 'archive', servicePages(src, true, true));
  yield* withAttachments(db, 'fuel_fillings', fuelPages(src, true));
  yield* plain('meter_readings', readingPages(src));
  yield* plain('counter_corrections', correctionPages(src));
  yield* plain('notification_setups', setupPages(src));
  yield* withAttachments(db, 'issues', issuePages(src)); // version 5 (issues.ts)
  // Version 6 (workshop-export.ts): an inspection's images are its attachments.
  yield* plain('inspection_forms', inspectionFormPages(src));
  yield* withAttachments(db, 'inspections', inspectionPages(src));
  yield* plain('work_orders', workOrderPages(src));
  yield* plain('vehicle_assignments', vehicleAssignmentPages(src));
  yield '}';
}
