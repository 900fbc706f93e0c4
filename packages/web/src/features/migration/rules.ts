import {
  FLEET_TRANSFER_CSV_COLLECTIONS,
  type FLEET_TRANSFER_DEVICE_MODES,
  FLEET_TRANSFER_FORMAT,
  FLEET_TRANSFER_VERSIONS,
  LUBELOGGER_KINDS,
  type LubeLoggerKind,
} from '@fleetkeep/core';
import { serverIssues } from '../../lib/refusal.ts';

/** Pure rules of the migration screen (spec §2 `/migration/{fleetId}`). */

/** The collections a document summary counts, in the order the screen lists them: those of the export. */
export const SUMMARY_KEYS = FLEET_TRANSFER_CSV_COLLECTIONS;
/** Counts the import result lists after the collections (the export document has them too, not as CSV). */
export const RESULT_EXTRA_KEYS = [
  'attachments',
  'meter_readings',
  'counter_corrections',
  'notification_setups',
] as const;

/** A unit of the chosen document as the device prompt lists it: source id, name, identifier ('' none). */
export interface DocumentUnit {
  id: number;
  name: string;
  device: string;
}

export type DocumentCheck =
  | {
      ok: true;
      document: unknown;
      counts: Record<(typeof SUMMARY_KEYS)[number], number>;
      fleetName: string;
      units: DocumentUnit[];
    }
  | { ok: false; reason: 'json' | 'format' };

/** Reads a chosen file as a Fleetkeep export: parsed JSON of the right format and version, with counts. */
export function checkDocument(text: string): DocumentCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'json' };
  }
  const doc = value as Record<string, unknown> | null;
  if (
    typeof doc !== 'object' ||
    doc === null ||
    doc.format !== FLEET_TRANSFER_FORMAT ||
    !(FLEET_TRANSFER_VERSIONS as readonly unknown[]).includes(doc.version)
  )
    return { ok: false, reason: 'format' };
  const counts = Object.fromEntries(
    SUMMARY_KEYS.map((k) => [k, Array.isArray(doc[k]) ? (doc[k] as unknown[]).length : 0]),
  ) as Record<(typeof SUMMARY_KEYS)[number], number>;
  const fleet = doc.fleet as { name?: unknown } | undefined;
  const units = (Array.isArray(doc.units) ? (doc.units as Record<string, unknown>[]) : []).flatMap((u) =>
    typeof u?.id === 'number' && typeof u.name === 'string'
      ? [{ id: u.id, name: u.name, device: typeof u.device_id === 'string' ? u.device_id : '' }]
      : [],
  );
  return {
    ok: true,
    document: doc,
    counts,
    fleetName: typeof fleet?.name === 'string' ? fleet.name : '',
    units,
  };
}

/** Keep the document's device identifiers, or enter new ones (core `fleetTransferBody`). */
export type DeviceMode = (typeof FLEET_TRANSFER_DEVICE_MODES)[number];
/** One entered identifier of the import body; null: a placeholder, entered later on the unit's page. */
export type DeviceEntry = { unit: number; uid: string | null };

/** The body's `device_ids`: each shown field's text, trimmed; an empty one is null. */
export function deviceIds(fields: Record<number, string>): DeviceEntry[] {
  return Object.entries(fields).map(([unit, text]) => ({ unit: Number(unit), uid: text.trim() || null }));
}

/**
 * The source units a refusal (409) names: `body.document.units.{i}.device_id` (a kept identifier) or
 * `body.device_ids.{j}.uid` (an entered one), so that the screen asks again for just those.
 */
export function takenDevices(details: unknown, units: DocumentUnit[], sent: DeviceEntry[]): number[] {
  const out: number[] = [];
  for (const { source, path } of serverIssues(details)) {
    const field = source === 'body' ? path.join('.') : '';
    const kept = /^document\.units\.(\d+)\.device_id$/.exec(field);
    const entered = /^device_ids\.(\d+)\.uid$/.exec(field);
    const unit = kept ? units[Number(kept[1])]?.id : entered ? sent[Number(entered[1])]?.unit : undefined;
    if (unit !== undefined && !out.includes(unit)) out.push(unit);
  }
  return out;
}

/** The record kind a LubeLogger export's file name suggests (`gasrecords.csv` → fuel); service otherwise. */
export function guessKind(fileName: string): LubeLoggerKind {
  const n = fileName.toLowerCase();
  if (/gas|fuel/.test(n)) return 'fuel';
  if (/odometer/.test(n)) return 'odometer';
  if (/reminder/.test(n)) return 'reminder';
  if (/repair/.test(n)) return 'repair';
  if (/upgrade/.test(n)) return 'upgrade';
  return LUBELOGGER_KINDS[0];
}

/** A mapping choice: `new` creates a unit named `name`, otherwise the unit id as text. */
export interface VehicleChoice {
  target: string;
  name: string;
}

/** The commit body's `vehicles` from the choices, or null while a new unit has no name. */
export function vehicleTargets(
  choices: Record<string, VehicleChoice>,
): ({ vehicle: string; unit: number } | { vehicle: string; create: string })[] | null {
  const out: ({ vehicle: string; unit: number } | { vehicle: string; create: string })[] = [];
  for (const [vehicle, c] of Object.entries(choices)) {
    if (c.target === 'new') {
      if (c.name.trim() === '') return null;
      out.push({ vehicle, create: c.name.trim() });
    } else out.push({ vehicle, unit: Number(c.target) });
  }
  return out;
}
