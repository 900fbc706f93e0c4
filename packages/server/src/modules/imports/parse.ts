import { inflateRawSync } from 'node:zlib';
import {
  IMPORT_CELL_MAX,
  IMPORT_COLUMNS_MAX,
  IMPORT_DELIMITERS,
  IMPORT_ROWS_MAX,
  IMPORT_SHEETS_MAX,
  IMPORT_XLSX_ENTRIES_MAX,
  IMPORT_XLSX_UNCOMPRESSED_MAX,
  type ImportDelimiter,
  type ImportEncoding,
  ImportFileError,
  type ImportParseReply,
} from '@fleetkeep/core';
import ExcelJS from 'exceljs';
import jschardet from 'jschardet';
import { guessDelimiter, readCsv } from './csv.js';

/**
 * Reading an uploaded import file into text cells. Every hostile input ends in
 * a `FileRefused` with the i18n key of a clear message, never a crash, a hang or a partial result:
 * binary junk, an empty file, too many rows or columns, a cell past IMPORT_CELL_MAX, a zip bomb (the zip
 * directory's sizes are summed before anything is inflated, and every part is then inflated with a hard
 * output cap, so a lying directory cannot get past it), a formula without a stored result.
 */

export class FileRefused extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** The refusals' i18n keys (core `ImportFileError`). */
export const FileError = ImportFileError;

export interface ParseOptions {
  name?: string;
  delimiter?: ImportDelimiter;
  encoding?: ImportEncoding;
  sheet?: string;
}

const ZIP_MAGIC = 0x04034b50;
const isZip = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === ZIP_MAGIC;

export async function parseImportFile(bytes: Buffer, options: ParseOptions): Promise<ImportParseReply> {
  if (bytes.length === 0) throw new FileRefused(FileError.empty);
  if (isZip(bytes) || /\.xlsx$/i.test(options.name ?? '')) return parseXlsx(bytes, options.sheet);
  return parseCsvBytes(bytes, options);
}

// --- CSV ---

/**
 * The single- and double-byte encodings offered (core IMPORT_ENCODINGS) by the detector's names. UTF-8
 * and UTF-16 are told by their byte-order marks and strict decoding before the detector runs.
 */
const DETECTED: Readonly<Record<string, ImportEncoding>> = {
  'windows-1252': 'windows-1252',
  'windows-1251': 'windows-1251',
  'windows-1250': 'windows-1250',
  'iso-8859-2': 'iso-8859-2',
  'koi8-r': 'koi8-r',
  shift_jis: 'shift_jis',
  gb2312: 'gbk',
  gb18030: 'gbk',
};
/** Bytes the detector reads: a CSV's first lines tell its encoding; 10 MB would only cost time. */
const DETECT_BYTES = 64 * 1024;

/**
 * Byte-order marks first; then strict UTF-8; else the detector (jschardet, Mozilla's universal detector:
 * letter-pair statistics per language) among the offered code pages. A share of high bytes cannot tell
 * a Russian file with English column titles from a Western one (§5 "Generic checks": 23 languages,
 * Russian, Ukrainian, Bulgarian and Serbian among them); the person can still choose another encoding.
 */
export function detectEncoding(b: Buffer): ImportEncoding {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return 'utf-8';
  } catch {
    const candidates = jschardet.detectAll(b.subarray(0, DETECT_BYTES), {
      detectEncodings: Object.keys(DETECTED),
      minimumThreshold: 0,
    });
    for (const c of candidates) {
      const found = DETECTED[c.encoding?.toLowerCase() ?? ''];
      if (found) return found;
    }
    return 'windows-1252';
  }
}

/** Control characters other than tab, CR, LF and form feed mark a file that is not text. */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 65536);
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 9 || (c > 13 && c < 32) || c === 0xfffd) && c !== 12) bad++;
  }
  return bad > Math.max(2, sample.length / 200);
}

/** The offered delimiter that splits the first lines alike (papaparse's guess; `,` when none does). */
export function detectDelimiter(text: string): ImportDelimiter {
  return guessDelimiter(text, IMPORT_DELIMITERS) as ImportDelimiter;
}

function parseCsvBytes(bytes: Buffer, options: ParseOptions): ImportParseReply {
  const encoding = options.encoding ?? detectEncoding(bytes);
  let text: string;
  try {
    text = new TextDecoder(encoding).decode(bytes);
  } catch {
    throw new FileRefused(FileError.binary);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new FileRefused(FileError.empty);
  if (looksBinary(text)) throw new FileRefused(FileError.binary);
  const delimiter = options.delimiter ?? detectDelimiter(text);
  return { format: 'csv', sheets: [], sheet: null, delimiter, encoding, rows: parseCsv(text, delimiter) };
}

/**
 * RFC 4180 CSV (csv.ts): lines with nothing on them left out. Every record is checked as it is read,
 * stopping at the first cap passed (rows, columns, cell length).
 */
export function parseCsv(text: string, delimiter: ImportDelimiter): string[][] {
  return readCsv(text, { delimiter, guess: IMPORT_DELIMITERS, skip: 'empty', check: withinCaps }).rows;
}

/** Refuses the record past IMPORT_ROWS_MAX (and the header), IMPORT_COLUMNS_MAX or IMPORT_CELL_MAX. */
function withinCaps(row: string[], index: number): void {
  if (index > IMPORT_ROWS_MAX) throw new FileRefused(FileError.tooManyRows);
  for (let i = 0; i < row.length; i++) {
    if (i >= IMPORT_COLUMNS_MAX) throw new FileRefused(FileError.tooManyColumns);
    if ((row[i] as string).length > IMPORT_CELL_MAX) throw new FileRefused(FileError.cellTooLong);
  }
}

// --- XLSX ---

/**
 * Checks the zip directory before exceljs inflates anything: at most IMPORT_XLSX_ENTRIES_MAX parts whose
 * declared sizes sum to at most IMPORT_XLSX_UNCOMPRESSED_MAX; then inflates each part with its declared
 * size as the hard output limit, so a part that lies about its size is refused too.
 */
export function checkZip(b: Buffer): void {
  const min = Math.max(0, b.length - 65557);
  let eocd = -1;
  for (let i = b.length - 22; i >= min; i--)
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) throw new FileRefused(FileError.badXlsx);
  const entries = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  if (entries === 0xffff || at === 0xffffffff) throw new FileRefused(FileError.zipBomb); // zip64
  if (entries > IMPORT_XLSX_ENTRIES_MAX) throw new FileRefused(FileError.zipBomb);
  let total = 0;
  const parts: { method: number; size: number; packed: number; local: number }[] = [];
  for (let n = 0; n < entries; n++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== 0x02014b50) throw new FileRefused(FileError.badXlsx);
    const part = {
      method: b.readUInt16LE(at + 10),
      packed: b.readUInt32LE(at + 20),
      size: b.readUInt32LE(at + 24),
      local: b.readUInt32LE(at + 42),
    };
    total += part.size;
    if (total > IMPORT_XLSX_UNCOMPRESSED_MAX) throw new FileRefused(FileError.zipBomb);
    parts.push(part);
    at += 46 + b.readUInt16LE(at + 28) + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  for (const p of parts) {
    if (p.local + 30 > b.length || b.readUInt32LE(p.local) !== ZIP_MAGIC)
      throw new FileRefused(FileError.badXlsx);
    const start = p.local + 30 + b.readUInt16LE(p.local + 26) + b.readUInt16LE(p.local + 28);
    const data = b.subarray(start, start + p.packed);
    if (p.method === 0) {
      if (data.length !== p.size) throw new FileRefused(FileError.badXlsx);
    } else if (p.method === 8) {
      let out: Buffer;
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, p.size) });
      } catch (e) {
        throw new FileRefused(e instanceof RangeError ? FileError.zipBomb : FileError.badXlsx);
      }
      if (out.length !== p.size) throw new FileRefused(FileError.badXlsx);
    } else throw new FileRefused(FileError.badXlsx);
  }
}

/** A cell as text: formulas give their stored result (or are refused), dates their ISO day (and time). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  if (typeof value !== 'object') return String(value);
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: ExcelJS.CellValue }).result;
    if (result === undefined || (typeof result === 'object' && result !== null && 'error' in result))
      throw new FileRefused(FileError.formula);
    return cellText(result);
  }
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return String((value as { text: unknown }).text);
  if ('error' in value) return String(value.error);
  return '';
}

async function parseXlsx(bytes: Buffer, sheetName?: string): Promise<ImportParseReply> {
  if (!isZip(bytes)) throw new FileRefused(FileError.badXlsx);
  checkZip(bytes);
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new FileRefused(FileError.badXlsx);
  }
  const sheets = book.worksheets.slice(0, IMPORT_SHEETS_MAX).map((s) => s.name);
  const sheet = sheetName === undefined ? book.worksheets[0] : book.getWorksheet(sheetName);
  if (!sheet) throw new FileRefused(sheetName === undefined ? FileError.empty : FileError.sheet);
  if (sheet.actualRowCount > IMPORT_ROWS_MAX + 1) throw new FileRefused(FileError.tooManyRows);
  if (sheet.columnCount > IMPORT_COLUMNS_MAX) throw new FileRefused(FileError.tooManyColumns);
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      const text = cellText(cell.value);
      if (text.length > IMPORT_CELL_MAX) throw new FileRefused(FileError.cellTooLong);
      cells[col - 1] = text;
    });
    if (cells.length > IMPORT_COLUMNS_MAX) throw new FileRefused(FileError.tooManyColumns);
    rows.push(Array.from(cells, (c) => c ?? ''));
  });
  if (!rows.length) throw new FileRefused(FileError.empty);
  return { format: 'xlsx', sheets, sheet: sheet.name, delimiter: null, encoding: null, rows };
}
