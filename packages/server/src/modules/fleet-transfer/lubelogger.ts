import {
  FLEET_TRANSFER_FORMAT,
  FLEET_TRANSFER_VERSION,
  type FleetTransferDocument,
  LUBELOGGER_ROWS_MAX,
  type LubeLoggerFile,
  type LubeLoggerKind,
  ServiceFlag,
  toThousandths,
} from '@fleetkeep/core';
import { readCsv } from '../imports/csv.js';

/**
 * Reading LubeLogger's CSV exports. Pure: text in, records out; the service maps them
 * onto a fleet export document and imports that in one transaction.
 *
 * Columns (LubeLogger's export models, as its documentation and sample files name them; matched
 * case-insensitively, spaces ignored, unknown columns such as extra fields left out):
 * - service, repair and upgrade records: Date, Odometer, Description, Notes, Cost, Tags;
 * - fuel (gas) records: Date, Odometer, FuelConsumed, Cost, FuelEconomy, IsFillToFull, MissedFuelUp,
 *   Notes, Tags;
 * - odometer records: Date, InitialOdometer, Odometer, Notes, Tags;
 * - reminders: Description, Urgency, Metric, Notes, DueDate, DueOdometer, Tags.
 * Newer exports may add `VehicleId` (and `Id`): rows are then grouped by that vehicle; otherwise every
 * row belongs to the vehicle the user named for the file (older exports are per vehicle).
 *
 * Odometers are read in the fleet's distance unit, volumes in its fuel unit, costs in its currency.
 */

export const REQUIRED: Record<LubeLoggerKind, string[]> = {
  service: ['date', 'description'],
  repair: ['date', 'description'],
  upgrade: ['date', 'description'],
  fuel: ['date', 'fuelconsumed'],
  odometer: ['date', 'odometer'],
  reminder: ['description'],
};

/** LubeLogger writes commas; exports opened and saved again in a spreadsheet may hold semicolons. */
const DELIMITERS = [',', ';'] as const;

/** RFC 4180 records (imports/csv.ts): a byte order mark dropped, rows of blank cells left out. */
export function parseCsv(input: string): string[][] {
  return readCsv(input, { guess: DELIMITERS, skip: 'blank' }).rows;
}

/** A decimal as LubeLogger writes it ("1,234.56", "$20.60", "20,60"), in thousandths; null when empty. */
export function parseAmount(raw: string | undefined): number | null | undefined {
  const v = (raw ?? '').replace(/[^\d.,-]/g, '');
  if (v === '') return null;
  let s = v;
  const dot = s.lastIndexOf('.');
  const comma = s.lastIndexOf(',');
  if (dot >= 0 && comma >= 0)
    s = dot > comma ? s.replaceAll(',', '') : s.replaceAll('.', '').replace(',', '.');
  else if (comma >= 0) s = s.split(',').length === 2 ? s.replace(',', '.') : s.replaceAll(',', '');
  const n = Number(s);
  if (!Number.isFinite(n)) return undefined;
  return toThousandths(Math.round(n * 1000) / 1000) ?? undefined;
}

/** A date to YYYY-MM-DD by the chosen order (ISO dates are read whatever the order); undefined if invalid. */
export function parseDate(raw: string | undefined, order: 'MDY' | 'DMY' | 'YMD'): string | null | undefined {
  const v = (raw ?? '').trim().split(/[ T]/)[0]!;
  if (v === '') return null;
  const parts = v.split(/[./-]/).map((p) => Number(p));
  if (parts.length !== 3 || parts.some((p) => !Number.isInteger(p))) return undefined;
  let [y, m, d] = [0, 0, 0];
  if (/^\d{4}[./-]/.test(v) || order === 'YMD') [y, m, d] = parts as [number, number, number];
  else if (order === 'MDY') [m, d, y] = parts as [number, number, number];
  else [d, m, y] = parts as [number, number, number];
  if (y < 100) y += 2000;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || y > 2200 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const truthy = (v: string | undefined) => /^(true|yes|1)$/i.test((v ?? '').trim());

export interface LubeRecord {
  file: string;
  line: number;
  vehicle: string;
  kind: LubeLoggerKind;
  date: string | null;
  /** As written, in the fleet's distance unit. */
  odometer: number | null;
  name: string;
  notes: string;
  /** Thousandths of money. */
  cost: number | null;
  /** Thousandths of the fleet fuel unit. */
  volume: number | null;
  full: boolean;
  error: string | null;
}

const DEFAULT_NAME: Record<LubeLoggerKind, string> = {
  service: 'Service',
  repair: 'Repair',
  upgrade: 'Upgrade',
  fuel: 'Fuel',
  odometer: 'Odometer',
  reminder: 'Reminder',
};

/** The records of one file; a file-level fault (no header, missing column) is one record with an error. */
export function readFile(file: LubeLoggerFile, order: 'MDY' | 'DMY' | 'YMD'): LubeRecord[] {
  const rows = parseCsv(file.content);
  const base = {
    file: file.name,
    vehicle: file.vehicle,
    kind: file.kind,
    date: null,
    odometer: null,
    name: '',
    notes: '',
    cost: null,
    volume: null,
    full: false,
  };
  if (rows.length === 0) return [{ ...base, line: 1, error: 'The file is empty' }];
  const header = rows[0]!.map((h) => h.replace(/\s+/g, '').toLowerCase());
  const missing = REQUIRED[file.kind].filter((c) => !header.includes(c));
  if (missing.length) return [{ ...base, line: 1, error: `Missing columns: ${missing.join(', ')}` }];
  if (rows.length - 1 > LUBELOGGER_ROWS_MAX)
    return [{ ...base, line: 1, error: `At most ${LUBELOGGER_ROWS_MAX} rows per file` }];
  const col = (row: string[], name: string) => {
    const i = header.indexOf(name);
    return i < 0 ? undefined : row[i]?.trim();
  };
  return rows.slice(1).map((row, i) => {
    const errors: string[] = [];
    const dateText = file.kind === 'reminder' ? col(row, 'duedate') : col(row, 'date');
    const date = parseDate(dateText, order);
    if (date === undefined) errors.push(`Invalid date "${dateText}"`);
    else if (date === null && file.kind !== 'reminder') errors.push('Date is required');
    const odoText = file.kind === 'reminder' ? col(row, 'dueodometer') : col(row, 'odometer');
    const odo = parseAmount(odoText);
    if (odo === undefined || (odo !== null && odo < 0)) errors.push(`Invalid odometer "${odoText}"`);
    if (file.kind === 'odometer' && odo === null) errors.push('Odometer is required');
    const cost = parseAmount(col(row, 'cost'));
    if (cost === undefined || (cost !== null && cost < 0)) errors.push(`Invalid cost "${col(row, 'cost')}"`);
    const volume = file.kind === 'fuel' ? parseAmount(col(row, 'fuelconsumed')) : null;
    if (file.kind === 'fuel' && (volume === undefined || volume === null || volume <= 0))
      errors.push(`Invalid fuel volume "${col(row, 'fuelconsumed')}"`);
    const description = (col(row, 'description') ?? '').slice(0, 128);
    const notes = [col(row, 'notes'), col(row, 'tags') ? `Tags: ${col(row, 'tags')}` : '']
      .filter(Boolean)
      .join('\n');
    const vehicleId = col(row, 'vehicleid');
    return {
      file: file.name,
      line: i + 2,
      vehicle: vehicleId ? `${file.vehicle} #${vehicleId}` : file.vehicle,
      kind: file.kind,
      date: date ?? null,
      odometer: typeof odo === 'number' ? odo / 1000 : null,
      name: description.trim() || DEFAULT_NAME[file.kind],
      notes: notes.slice(0, 10_000),
      cost: typeof cost === 'number' ? cost : null,
      volume: typeof volume === 'number' ? volume : null,
      full: file.kind === 'fuel' && truthy(col(row, 'isfilltofull')),
      error: errors.length ? errors.join('; ') : null,
    };
  });
}

export interface FleetUnits {
  tz: number;
  /** 1: miles (spec §3). */
  ms: number;
  fm: number;
}

const MILE_KM = 1.609344;

/** An odometer as written (the fleet's distance unit) in km, to the metre. */
export const kmOf = (fleet: Pick<FleetUnits, 'ms'>, v: number) =>
  Math.round((fleet.ms === 1 ? v * MILE_KM : v) * 1000) / 1000;

/**
 * The records as a fleet export document: one unit per vehicle (source ids 1…n in `vehicles` order;
 * its counters the highest odometer seen), service, repair and upgrade records closed in the archive,
 * reminders as open services due by date or odometer, fuel records as fillings.
 */
export function toDocument(
  records: LubeRecord[],
  vehicles: string[],
  fleet: FleetUnits,
  dayOf: (date: string) => number,
  at: number,
): FleetTransferDocument {
  const km = (v: number | null) => (v === null ? null : kmOf(fleet, v));
  const unitOf = new Map(vehicles.map((v, i) => [v, i + 1]));
  const highest = new Map<string, number>();
  for (const r of records)
    if (r.odometer !== null && r.kind !== 'reminder')
      highest.set(r.vehicle, Math.max(highest.get(r.vehicle) ?? 0, km(r.odometer)!));
  const doc: FleetTransferDocument = {
    format: FLEET_TRANSFER_FORMAT,
    version: FLEET_TRANSFER_VERSION,
    exported_at: at,
    fleet: { name: '', tz: fleet.tz, cur: '', ms: fleet.ms, fm: fleet.fm },
    units: vehicles.map((v, i) => ({
      id: i + 1,
      name: v.slice(0, 128),
      unit_type_id: null,
      mileage: highest.get(v) ?? 0,
      engine_hours: 0,
      cf: [],
      attachments: [],
    })),
    drivers: [],
    trailers: [],
    custom_fields: [],
    line_items: [],
    intervals: [],
    assignments: [],
    services: [],
    archive: [],
    fuel_fillings: [],
    meter_readings: [],
    counter_corrections: [],
    notification_setups: [],
    issues: [],
    inspection_forms: [],
    inspections: [],
    work_orders: [],
    vehicle_assignments: [],
  };
  let id = 0;
  const blank = {
    interval_id: null,
    assignment_id: null,
    created_at: at,
    updated_at: at,
    start_date: null,
    end_date: null,
    planned_date: null,
    forecast_date: null,
    limit_mileage: null,
    limit_engine_hours: null,
    last_date: null,
    last_mileage: null,
    last_engine_hours: null,
    mileage: null,
    engine_hours: null,
    manual_cost: null,
    notify_days: null,
    cf: [],
    li: [],
    attachments: [],
  };
  for (const r of records) {
    const unit = unitOf.get(r.vehicle);
    if (r.error || unit === undefined) continue;
    id++;
    if (r.kind === 'service' || r.kind === 'repair' || r.kind === 'upgrade') {
      const day = dayOf(r.date!);
      doc.archive.push({
        ...blank,
        id,
        object_type: 'u',
        object_id: unit,
        f: ServiceFlag.closed,
        name: r.name,
        description: r.notes,
        start_date: day,
        end_date: day,
        mileage: km(r.odometer),
        manual_cost: r.cost,
      });
    } else if (r.kind === 'reminder') {
      doc.services.push({
        ...blank,
        id,
        object_type: 'u',
        object_id: unit,
        f: ServiceFlag.upcoming | ServiceFlag.manually,
        name: r.name,
        description: r.notes,
        planned_date: r.date === null ? null : dayOf(r.date),
        limit_mileage: km(r.odometer),
      });
    } else if (r.kind === 'fuel') {
      doc.fuel_fillings.push({
        id,
        unit_id: unit,
        // Noon of the fleet day: LubeLogger keeps dates only.
        filled_at: dayOf(r.date!) + 12 * 3600,
        fuel_type: '',
        volume: r.volume!,
        volume_unit: fleet.fm === 2 ? 2 : 1,
        price: null,
        manual_cost: r.cost,
        total_cost: r.cost ?? 0,
        mileage: km(r.odometer),
        full_tank: r.full ? 1 : 0,
        station: '',
        description: r.notes,
        cf: [],
        created_at: at,
        updated_at: at,
        attachments: [],
      });
    }
  }
  return doc;
}
