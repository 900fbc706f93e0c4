import { randomUUID } from 'node:crypto';
import type { FleetTransferBody, RecordRefusal } from '@fleetkeep/core';
import { conflict } from '../../http/errors.js';
import { DUPLICATE_DEVICE } from '../fleets/objects-admin.js';
import type { Db, Doc } from './run.js';

/** How the importer chose the created units' device identifiers (core `fleetTransferBody`). */
export type DeviceChoice = Pick<FleetTransferBody, 'devices' | 'device_ids'>;

/** A unit whose tracker is not known yet; the admin enters the identifier on the unit's page. */
export const placeholderDevice = () => `import-${randomUUID()}`;

/** Statement size of the "is it taken" query (SQLite caps the bound values of a statement). */
const CHUNK = 500;

/**
 * The device identifier of each unit the import creates (by its index in `doc.units`): an entered one
 * first, else the document's under `keep`, else a placeholder. Identifiers are unique across the
 * installation (PRODUCT.md "Service objects and counters"): one in use, on this server possibly by the
 * exported unit itself, or given twice, is refused with a detail per unit (409), before anything is
 * written, so that the screen asks for another one for just those units.
 */
export async function devicesOf(
  trx: Db,
  doc: Doc,
  created: number[],
  choice: DeviceChoice | undefined,
): Promise<Map<number, string>> {
  const entered = new Map((choice?.device_ids ?? []).map((d, j) => [d.unit, { uid: d.uid, j }]));
  const wanted: { index: number; uid: string; field: string; row: number }[] = [];
  const out = new Map<number, string>();
  for (const i of created) {
    const u = doc.units[i]!;
    const entry = entered.get(u.id);
    if (entry?.uid)
      wanted.push({ index: i, uid: entry.uid, field: `body.device_ids.${entry.j}.uid`, row: entry.j });
    else if (!entry && choice?.devices === 'keep' && u.device_id)
      wanted.push({ index: i, uid: u.device_id, field: `body.document.units.${i}.device_id`, row: i });
    else out.set(i, placeholderDevice());
  }
  const taken = new Set<string>();
  const uids = [...new Set(wanted.map((w) => w.uid))];
  for (let k = 0; k < uids.length; k += CHUNK) {
    const rows = await trx
      .selectFrom('units')
      .select('device_id')
      .where('device_id', 'in', uids.slice(k, k + CHUNK))
      .execute();
    for (const r of rows) taken.add(r.device_id);
  }
  const issues: RecordRefusal[] = [];
  for (const w of wanted) {
    if (taken.has(w.uid)) issues.push({ row: w.row, field: w.field, reason: DUPLICATE_DEVICE });
    else out.set(w.index, w.uid);
    taken.add(w.uid);
  }
  if (issues.length) throw conflict(DUPLICATE_DEVICE, issues);
  return out;
}
