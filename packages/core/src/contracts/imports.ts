import { z } from 'zod';
import { Limits } from '../constants.js';
import { id, pathId } from './common.js';
import { VEHICLE_PLATE_MAX, VEHICLE_TEXT_MAX } from './fleets.js';
import { intervalImportRow, intervalWire } from './intervals.js';

/**
 * Wire contracts of the import flow (spec §2 the `/…/import` routes, §5 "Import:
 * intervals", "Import: services", "Import: line items", "Generic checks", §7 `GET/POST /fleets/{id}/import`).
 *
 * Design:
 * - A file is parsed on the SERVER (`POST /api/fleets/{fid}/import/{kind}/parse`, the raw bytes as
 *   `application/octet-stream`), never in the browser, so that one place holds the hard caps against hostile
 *   files (size, rows, columns, cell length, the XLSX zip directory checked before anything is inflated).
 *   The reply is a grid of text cells.
 * - The browser maps columns to the fields of the kind (`IMPORT_COLUMNS`), keeps the rows as text cells,
 *   and checks them with core `imports.ts` `checkImportRows` for the preview (invalid cells red).
 * - `POST /api/fleets/{fid}/import/{kind}` takes the mapped text rows; the server checks them again with the
 *   same `checkImportRows` and hands the typed rows to the kind's existing batch writer (one transaction:
 *   all rows or none, per-row errors with `row`, the index of the sent row).
 * - `GET/POST /api/fleets/{fid}/import` are the spec §7 interval calls: the fleet's intervals as import
 *   rows, and an import of typed interval rows (`{intervals}`) answering the created intervals.
 */

/**
 * The kinds of import, named as their screens (spec §2), and the units of the service objects list
 * (docs/product.md "The vehicle profile").
 */
export const IMPORT_KINDS = [
  'intervals',
  'services',
  'fuelfillings',
  'lineitems',
  'units',
  'issues',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const importKind = z.enum(IMPORT_KINDS);

/** Largest file accepted by the parse call. */
export const IMPORT_FILE_BYTES_MAX = 10 * 1024 * 1024;
/** Rows of one import (10,000 rows), plus one for a header line. */
export const IMPORT_ROWS_MAX = 10_000;
/** Columns of a file; a wider one is refused ("100,000 columns"). */
export const IMPORT_COLUMNS_MAX = 200;
/** Characters of one cell; a longer one is refused ("10 MB cells"). */
export const IMPORT_CELL_MAX = 4096;
/** Sum of the uncompressed sizes of an XLSX's parts, read from the zip directory before inflating. */
export const IMPORT_XLSX_UNCOMPRESSED_MAX = 64 * 1024 * 1024;
/** Parts of an XLSX zip. */
export const IMPORT_XLSX_ENTRIES_MAX = 2000;
/** Sheets named in a parse reply. */
export const IMPORT_SHEETS_MAX = 100;

/** CSV delimiters detected or chosen. */
export const IMPORT_DELIMITERS = [',', ';', '\t', '|'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];
/** Text encodings detected or chosen (WHATWG names, decoded by `TextDecoder`). */
export const IMPORT_ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'windows-1251',
  'windows-1250',
  'iso-8859-2',
  'koi8-r',
  'shift_jis',
  'gbk',
] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/** Date formats of import cells: the display formats of spec §5 "Dates and times" plus slashed ones. */
export const IMPORT_DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD.MM.YYYY',
  'DD-MM-YYYY',
  'MM-DD-YYYY',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'DD MMM YYYY',
] as const;
export type ImportDateFormat = (typeof IMPORT_DATE_FORMATS)[number];
export const importDateFormat = z.enum(IMPORT_DATE_FORMATS);

/** What a column holds, which decides its check (spec §5 "Generic checks"). */
export type ImportColumnType =
  | 'text'
  | 'unit'
  | 'int'
  | 'decimal'
  | 'date'
  | 'datetime'
  | 'timeUnit'
  | 'lineType'
  // The units import (core import-units.ts):
  | 'deviceId'
  | 'unitType'
  | 'vin'
  | 'year'
  | 'vehicleFuel'
  | 'tank'
  | 'tags'
  // The issues import (core import-issues.ts):
  | 'issueObject'
  | 'issuePriority'
  | 'issueStatus';

export interface ImportColumn {
  /** Field key; its title is the i18n key `imports.field.<key>`. */
  key: string;
  type: ImportColumnType;
  required?: boolean;
  /** Longest text of a `text` column (default Limits.stringMax; `description` Limits.descriptionMax). */
  max?: number;
}

/**
 * The fields of each kind, in the order the mapping step lists them (spec §5; PRODUCT.md "Intervals",
 * "Services", "Fuel fillings", "Line-items library").
 */
export const IMPORT_COLUMNS: Readonly<Record<ImportKind, readonly ImportColumn[]>> = {
  intervals: [
    { key: 'name', type: 'text', required: true },
    { key: 'unit', type: 'unit' },
    { key: 'mileage_frequency', type: 'int' },
    { key: 'engine_hours_frequency', type: 'int' },
    { key: 'time_frequency', type: 'int' },
    { key: 'time_unit', type: 'timeUnit' },
    { key: 'last_mileage', type: 'int' },
    { key: 'last_engine_hours', type: 'int' },
    { key: 'last_date', type: 'date' },
    { key: 'description', type: 'text' },
  ],
  services: [
    { key: 'unit', type: 'unit', required: true },
    { key: 'name', type: 'text', required: true },
    { key: 'start_date', type: 'date' },
    { key: 'end_date', type: 'date' },
    { key: 'mileage', type: 'int' },
    { key: 'engine_hours', type: 'int' },
    { key: 'total_cost', type: 'decimal' },
    { key: 'description', type: 'text' },
  ],
  fuelfillings: [
    { key: 'unit', type: 'unit', required: true },
    { key: 'date', type: 'datetime', required: true },
    { key: 'volume', type: 'decimal', required: true },
    { key: 'price', type: 'decimal' },
    { key: 'total_cost', type: 'decimal' },
    { key: 'mileage', type: 'int' },
    { key: 'fuel_type', type: 'text' },
    { key: 'station', type: 'text' },
    { key: 'description', type: 'text' },
  ],
  lineitems: [
    { key: 'name', type: 'text', required: true },
    { key: 'type', type: 'lineType', required: true },
    { key: 'cost', type: 'decimal', required: true },
  ],
  // A unit and its vehicle profile, as the unit editor and the profile tab take them (contracts/fleets.ts).
  // An issue of a unit or trailer, as the report dialog and the issue's status take it (contracts/issues.ts).
  issues: [
    { key: 'object', type: 'issueObject', required: true },
    { key: 'title', type: 'text', required: true },
    { key: 'description', type: 'text', max: Limits.descriptionMax },
    { key: 'priority', type: 'issuePriority' },
    { key: 'reported_date', type: 'date' },
    { key: 'status', type: 'issueStatus' },
  ],
  units: [
    { key: 'name', type: 'text', required: true },
    { key: 'device_id', type: 'deviceId' },
    { key: 'unit_type', type: 'unitType' },
    { key: 'mileage', type: 'int' },
    { key: 'engine_hours', type: 'int' },
    { key: 'vin', type: 'vin' },
    { key: 'make', type: 'text', max: VEHICLE_TEXT_MAX },
    { key: 'model', type: 'text', max: VEHICLE_TEXT_MAX },
    { key: 'model_year', type: 'year' },
    { key: 'plate', type: 'text', max: VEHICLE_PLATE_MAX },
    { key: 'fuel_type', type: 'vehicleFuel' },
    { key: 'tank_capacity', type: 'tank' },
    { key: 'tags', type: 'tags' },
    { key: 'notes', type: 'text', max: Limits.descriptionMax },
  ],
};

/** Longest column title kept in a remembered mapping. */
export const IMPORT_MAPPING_TITLE_MAX = 32;

/**
 * A remembered mapping (user setting `imports`, per kind): field key → the column title it was read from.
 * Kept small: the settings total is capped (SETTINGS_TOTAL_MAX).
 */
export const importMapping = z.record(z.string().min(1).max(32), z.string().max(IMPORT_MAPPING_TITLE_MAX));
export const importMappingSetting = z.strictObject({
  intervals: importMapping.optional(),
  services: importMapping.optional(),
  fuelfillings: importMapping.optional(),
  lineitems: importMapping.optional(),
  units: importMapping.optional(),
  issues: importMapping.optional(),
});
export type ImportMappingSetting = z.infer<typeof importMappingSetting>;

// --- parse ---

export const importParseParams = z.object({ fid: id, kind: importKind });
/**
 * The parse route's body: the file's raw bytes (`application/octet-stream`), read as a Buffer by the route's
 * own content-type parser; declared so that the API description shows the request body.
 */
export const importFileBody = z.any().describe("The file's bytes (CSV or XLSX) as application/octet-stream");

export const importParseQuery = z.object({
  name: z.string().max(255).optional().describe('File name; .xlsx selects the XLSX reader'),
  delimiter: z.enum(IMPORT_DELIMITERS).optional().describe('CSV delimiter (default: detected)'),
  encoding: z.enum(IMPORT_ENCODINGS).optional().describe('CSV encoding (default: detected)'),
  sheet: z.string().max(255).optional().describe('XLSX sheet name (default: the first)'),
});

export const importParseReply = z.object({
  format: z.enum(['csv', 'xlsx']),
  sheets: z.array(z.string()).describe('XLSX sheet names (empty for CSV)'),
  sheet: z.string().nullable(),
  delimiter: z.enum(IMPORT_DELIMITERS).nullable(),
  encoding: z.enum(IMPORT_ENCODINGS).nullable(),
  rows: z.array(z.array(z.string())).describe('Cells as text, the header line included'),
});
export type ImportParseReply = z.infer<typeof importParseReply>;

// --- import ---

/** A mapped row: field key → cell text. */
export const importCells = z.record(z.string().max(32), z.string().max(IMPORT_CELL_MAX));
export type ImportCells = z.infer<typeof importCells>;

/** A client's name for one import run, echoed in its progress events (core events.ts type 128). */
export const importProgressId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/)
  .describe('Name of this run: progress events (websocket, user event type 128) carry it');

export const importRowsBody = z.object({
  date_format: importDateFormat,
  rows: z.array(importCells).min(1).max(IMPORT_ROWS_MAX),
  progress: importProgressId.optional(),
});
export type ImportRowsBody = z.infer<typeof importRowsBody>;

/** What an import made: how many records, their ids, and where to see them. */
export const importResultReply = z.object({
  kind: importKind,
  created: z.number().int().describe('Records created'),
  rows: z.number().int().describe('Rows imported'),
  ids: z.array(z.number().int()).describe('Ids of the created records'),
});
export type ImportResultReply = z.infer<typeof importResultReply>;

/** `GET /api/fleets/{id}/import`: the fleet's intervals as import rows (spec §7). */
export const intervalImportListReply = z.object({ intervals: z.array(intervalImportRow) });
/** `POST /api/fleets/{id}/import`: the imported intervals (spec §7: the client registers them). */
export const intervalImportReply = z.object({ intervals: z.array(intervalWire) });

/** A cell's problem as the preview shows it: row index, field key and the i18n key of the reason. */
export const importCellIssue = z.object({ row: z.number().int(), field: z.string(), key: z.string() });
export type ImportCellIssue = z.infer<typeof importCellIssue>;

/** Params of the spec §7 routes `/fleets/{id}/import`. */
export const importFleetParams = z.object({ id: pathId });
