import { Limits, UNIT_TYPES } from './constants.js';
import { COUNTER_MAX } from './contracts/common.js';
import {
  UNIT_DEVICE_ID_MAX,
  VEHICLE_FUEL_TYPES,
  VEHICLE_TANK_MAX,
  VEHICLE_YEAR_MAX,
  VEHICLE_YEAR_MIN,
  type VehicleFuelType,
  type VehicleProfileBody,
} from './contracts/fleets.js';
import type { ImportCellIssue, ImportColumn } from './contracts/imports.js';
import { toThousandths } from './decimal.js';
import { fleetDistanceToKm } from './format/units.js';
import { ImportError } from './import-errors.js';
import { IMPORT_VALUE_TITLES } from './import-titles.js';
import { isInteger } from './validators.js';
import {
  normalizeTags,
  normalizeVin,
  UNIT_TAG_MAX,
  UNIT_TAGS_MAX,
  type VinIssue,
  vinIssue,
} from './vehicle.js';

/**
 * The rules of the units import (docs/product.md "The vehicle profile", "Imports"): the cells of a unit
 * and its vehicle profile, checked as the unit editor and the profile tab check them, for the browser's
 * preview and again on the server (core imports.ts `checkImportRows` calls these for the units' column
 * types).
 */

/** A unit as the units import writes it: the unit editor's new unit with its vehicle profile. */
export interface UnitImportRow {
  nm: string;
  /** Device identifier; none: the server gives a placeholder `import-…` (as the fleet import does). */
  uid?: string;
  ut: number | null;
  /** Starting mileage, km (the file's value in the fleet's distance unit, converted). */
  cnm?: number;
  /** Starting engine hours. */
  cneh?: number;
  vp: VehicleProfileBody;
}

/** What the units rules need besides the rows; the fields are those of `ImportCheckContext`. */
export interface UnitRuleContext {
  /** The fleet's units: a name one of them has is refused (compared without case). */
  units: readonly { id: number; n: string }[];
  /** Device identifiers known to be in use (the browser: the fleet's units; the server: the installation's). */
  deviceIds?: readonly string[];
  /** The unit types a cell may name, by their stored name (UNIT_TYPES) or id. */
  unitTypes?: readonly { id: number; n: string }[];
  /** The fleet's distance unit (1 miles): mileage cells are in it, as in the unit editor. */
  ms?: number;
}

/** Reasons of the units rules, as i18n keys; the VIN's are the profile tab's own texts. */
export const UnitImportError = {
  nameTaken: 'imports.err.unitName',
  deviceTaken: 'imports.err.deviceTaken',
  unitType: 'imports.err.unitType',
  year: 'imports.err.year',
  fuelType: 'imports.err.fuelType',
  tank: 'imports.err.tank',
  tags: 'imports.err.tags',
  counter: 'imports.err.counter',
  vinLength: 'vehicle.vin_length',
  vinChars: 'vehicle.vin_chars',
  /** A warning, not a refusal: many European VINs carry no check digit (docs/product.md). */
  vinCheck: 'vehicle.vin_check',
} as const;

const VIN_REASONS: Record<VinIssue, string> = {
  length: UnitImportError.vinLength,
  chars: UnitImportError.vinChars,
  check: UnitImportError.vinCheck,
};

/** Titles compare without case, spaces, underscores, dashes and dots (as the column guess). */
const norm = (s: string) => s.toLocaleLowerCase().replace(/[\s_\-.]+/g, '');

/** Words of common exports for a unit type beyond its names in the 23 languages. */
const UNIT_TYPE_SYNONYMS: Readonly<Record<string, string>> = {
  truck: 'lorry',
  motorcycle: 'motorbike',
  minibus: 'microbus',
  generator: 'nonmoving',
  stationary: 'nonmoving',
  forklift: 'specialized_vehicle',
  trailer: 'other',
};
/** Words of common exports for a fuel type beyond its names in the 23 languages. */
const FUEL_SYNONYMS: Readonly<Record<string, VehicleFuelType>> = {
  gasoline: 'petrol',
  gas: 'petrol',
  benzin: 'petrol',
  unleaded: 'petrol',
  ev: 'electric',
  bev: 'electric',
  electricity: 'electric',
  propane: 'lpg',
  autogas: 'lpg',
  naturalgas: 'cng',
  hev: 'hybrid',
  phev: 'hybrid',
  h2: 'hydrogen',
};

/** The stored name a cell gives among `names`: the name, its translation in any language, a synonym. */
function nameOf(
  text: string,
  names: readonly string[],
  titles: Readonly<Record<string, readonly string[]>>,
  synonyms: Readonly<Record<string, string>>,
): string | undefined {
  const t = norm(text);
  const found = names.find((n) => norm(n) === t || (titles[n] ?? []).some((title) => norm(title) === t));
  if (found) return found;
  const synonym = synonyms[t];
  return synonym && names.includes(synonym) ? synonym : undefined;
}

/** The unit type id a cell names: a known id, or a type's name in any language or a common word. */
export function unitTypeOf(text: string, types: readonly { id: number; n: string }[]): number | undefined {
  if (/^\d+$/.test(text)) return types.find((ut) => ut.id === Number(text))?.id;
  const name = nameOf(
    text,
    types.map((ut) => ut.n),
    IMPORT_VALUE_TITLES.unit_type ?? {},
    UNIT_TYPE_SYNONYMS,
  );
  return types.find((ut) => ut.n === name)?.id;
}

/** The fuel type a cell names: its key, its name in any language, or a common word ("Gasoline"). */
export function vehicleFuelOf(text: string): VehicleFuelType | undefined {
  return nameOf(text, VEHICLE_FUEL_TYPES, IMPORT_VALUE_TITLES.fuel_type ?? {}, FUEL_SYNONYMS) as
    | VehicleFuelType
    | undefined;
}

/** Tags of a cell: separated by commas or semicolons (a tag may hold spaces). */
export const tagsOfCell = (text: string): string[] => text.split(/[,;]/);

export type UnitCellValue = string | number | string[] | null;
export interface UnitCellCheck {
  value?: UnitCellValue;
  error?: string;
  /** The value is kept, with a word for the person (the VIN's check digit). */
  warning?: string;
}

const TANK_TEXT = /^\d+(\.\d+)?$/;

/** A non-empty cell of one of the units' column types. */
export function checkUnitCell(col: ImportColumn, text: string, ctx: UnitRuleContext): UnitCellCheck {
  switch (col.type) {
    case 'deviceId':
      return text.length <= UNIT_DEVICE_ID_MAX ? { value: text } : { error: ImportError.tooLong };
    case 'unitType': {
      const id = unitTypeOf(text, ctx.unitTypes ?? UNIT_TYPES.map((n, i) => ({ id: i + 1, n })));
      return id === undefined ? { error: UnitImportError.unitType } : { value: id };
    }
    case 'vin': {
      const issue = vinIssue(text);
      const vin = normalizeVin(text);
      if (issue === 'check') return { value: vin, warning: VIN_REASONS.check };
      return issue ? { error: VIN_REASONS[issue] } : { value: vin };
    }
    case 'year':
      return isInteger(text, { min: VEHICLE_YEAR_MIN, max: VEHICLE_YEAR_MAX })
        ? { value: Number(text) }
        : { error: UnitImportError.year };
    case 'vehicleFuel': {
      const ft = vehicleFuelOf(text);
      return ft ? { value: ft } : { error: UnitImportError.fuelType };
    }
    case 'tank': {
      // As the profile tab: a positive decimal with a dot, at most 3 decimals, at most VEHICLE_TANK_MAX.
      const thousandths = TANK_TEXT.test(text) ? toThousandths(text) : undefined;
      if (thousandths === undefined) return { error: ImportError.decimal };
      if (thousandths === 0) return { error: ImportError.positive };
      return thousandths > VEHICLE_TANK_MAX * 1000 ? { error: UnitImportError.tank } : { value: text };
    }
    case 'tags': {
      const parts = tagsOfCell(text);
      const tags = normalizeTags(parts);
      if (tags.length > UNIT_TAGS_MAX || tags.some((t) => t.length > UNIT_TAG_MAX))
        return { error: UnitImportError.tags };
      return { value: tags };
    }
    default:
      return { error: ImportError.required };
  }
}

type Values = Record<string, unknown>;
const text = (v: unknown) => v as string | undefined;
const int = (v: unknown) => v as number | undefined;

/**
 * The units of checked rows, one per row. A name a unit of the fleet has, or an earlier row, is refused
 * (compared without case and outer blanks: a second run of one file makes no twins); so is a device
 * identifier in use or in an earlier row (unique across the installation, as the unit editor holds).
 */
export function buildUnitRows(
  values: readonly Values[],
  ctx: UnitRuleContext,
  issues: ImportCellIssue[],
  offset: number,
  names: Set<string>,
  devices: Set<string>,
): { rows: number[]; data: UnitImportRow }[] {
  return values.flatMap((v, index) => {
    const row = offset + index;
    const nm = text(v.name);
    if (nm === undefined) return [];
    const key = nm.trim().toLocaleLowerCase();
    if (names.has(key)) issues.push({ row, field: 'name', key: UnitImportError.nameTaken });
    names.add(key);
    const uid = text(v.device_id);
    if (uid !== undefined) {
      if (devices.has(uid)) issues.push({ row, field: 'device_id', key: UnitImportError.deviceTaken });
      devices.add(uid);
    }
    const mileage = int(v.mileage);
    const vp: VehicleProfileBody = {};
    if (v.vin !== undefined) vp.vin = text(v.vin);
    if (v.make !== undefined) vp.mk = text(v.make);
    if (v.model !== undefined) vp.md = text(v.model);
    if (v.model_year !== undefined) vp.yr = int(v.model_year);
    if (v.plate !== undefined) vp.pl = text(v.plate);
    if (v.fuel_type !== undefined) vp.ft = v.fuel_type as VehicleFuelType;
    if (v.tank_capacity !== undefined) vp.tc = Number(v.tank_capacity);
    if (v.tags !== undefined) vp.tg = v.tags as string[];
    if (v.notes !== undefined) vp.nt = text(v.notes);
    const data: UnitImportRow = { nm: nm.trim(), ut: (v.unit_type as number | undefined) ?? null, vp };
    if (uid !== undefined) data.uid = uid;
    if (mileage !== undefined) data.cnm = fleetDistanceToKm(mileage, ctx.ms);
    if (v.engine_hours !== undefined) data.cneh = int(v.engine_hours);
    // Counters as the unit editor takes them (contracts/common.ts `counter`).
    if ((data.cnm ?? 0) > COUNTER_MAX) issues.push({ row, field: 'mileage', key: UnitImportError.counter });
    if ((data.cneh ?? 0) > COUNTER_MAX)
      issues.push({ row, field: 'engine_hours', key: UnitImportError.counter });
    return [{ rows: [row], data }];
  });
}

/** The sets `buildUnitRows` starts from: the fleet's unit names and the device identifiers in use. */
export function unitRuleSets(ctx: UnitRuleContext): { names: Set<string>; devices: Set<string> } {
  return {
    names: new Set(ctx.units.map((u) => u.n.trim().toLocaleLowerCase())),
    devices: new Set(ctx.deviceIds ?? []),
  };
}

/** Longest text of a text column of any kind. */
export const textMax = (col: ImportColumn): number =>
  col.max ?? (col.key === 'description' ? Limits.descriptionMax : Limits.stringMax);
