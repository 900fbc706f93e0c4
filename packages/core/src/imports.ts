import { LineItemKind } from './constants.js';
import type { FuelFillingImportRow } from './contracts/fuel.js';
import {
  IMPORT_COLUMNS,
  type ImportCellIssue,
  type ImportCells,
  type ImportColumn,
  type ImportDateFormat,
  type ImportKind,
} from './contracts/imports.js';
import { INTERVAL_TIME_FREQUENCY_MAX, type IntervalImportRow } from './contracts/intervals.js';
import type { LineItemImportRow } from './contracts/lineitems.js';
import type { ServiceImportRow } from './contracts/services.js';
import { toThousandths } from './decimal.js';
import { ImportError } from './import-errors.js';
import {
  buildIssueRows,
  checkIssueCell,
  type IssueImportRow,
  type IssueRuleContext,
} from './import-issues.js';
import { IMPORT_SYNONYMS } from './import-synonyms.js';
import { IMPORT_TITLES } from './import-titles.js';
import {
  buildUnitRows,
  checkUnitCell,
  textMax,
  type UnitImportRow,
  type UnitRuleContext,
  unitRuleSets,
} from './import-units.js';
import { localDate } from './timezone.js';
import { isFloat, isInteger, isValidString } from './validators.js';

/**
 * The one definition of the import rules (spec §5 "Import: intervals", "Import: services", "Import: line
 * items", "Generic checks"), used by the web preview (invalid cells red, the reason on hover) and by the
 * server before it writes ("the same shared rules"). Cells are text as a file gives them;
 * each issue names the row, the field key of `IMPORT_COLUMNS` and the i18n key of its reason.
 */

export { ImportError, ImportFileError } from './import-errors.js';

export interface ImportUnit {
  id: number;
  n: string;
}

export interface ImportCheckContext extends UnitRuleContext, IssueRuleContext {
  dateFormat: ImportDateFormat;
  /** The fleet's local date today, YYYY-MM-DD ("not after today", spec §5). */
  today: string;
  /** The fleet's units; names match case-sensitively and a name shared by several units matches all. */
  units: readonly ImportUnit[];
  /** The fleet, written into line-item rows (the batch route names the fleet per row). */
  fleetId: number;
  /** Interval names of the fleet (duplicates refused, case-insensitive). */
  intervalNames?: readonly string[];
  /** The library's items: a row may not repeat a name with the same type (spec §5 "Import: line items"). */
  lineItems?: readonly { n: string; t: number }[];
}

export type ImportPayload =
  | { kind: 'intervals'; rows: number[]; data: IntervalImportRow }
  | { kind: 'services'; rows: number[]; data: ServiceImportRow }
  | { kind: 'fuelfillings'; rows: number[]; data: FuelFillingImportRow }
  | { kind: 'lineitems'; rows: number[]; data: LineItemImportRow }
  | { kind: 'units'; rows: number[]; data: UnitImportRow }
  | { kind: 'issues'; rows: number[]; data: IssueImportRow };

export interface ImportCheck {
  issues: ImportCellIssue[];
  /** Cells kept as they are, with a word for the person (a VIN whose check digit does not match). */
  warnings: ImportCellIssue[];
  /** What to write; each names the source rows it comes from. Empty when any issue was found. */
  payloads: ImportPayload[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DATE_SHAPES: Record<ImportDateFormat, { re: RegExp; order: ('y' | 'm' | 'd')[] }> = {
  'YYYY-MM-DD': { re: /^(\d{4})-(\d{1,2})-(\d{1,2})$/, order: ['y', 'm', 'd'] },
  'DD.MM.YYYY': { re: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: ['d', 'm', 'y'] },
  'DD-MM-YYYY': { re: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: ['d', 'm', 'y'] },
  'MM-DD-YYYY': { re: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: ['m', 'd', 'y'] },
  'DD/MM/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['m', 'd', 'y'] },
  'DD MMM YYYY': { re: /^(\d{1,2}) ([a-z]{3})[a-z]*\.? (\d{4})$/i, order: ['d', 'm', 'y'] },
};
const ISO = DATE_SHAPES['YYYY-MM-DD'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date cell in `format` (or ISO YYYY-MM-DD, unambiguous, as XLSX date cells arrive) → `YYYY-MM-DD`, or
 * the reason: the month must be 1-12 (spec §5), the day must exist in that month.
 */
export function parseImportDate(text: string, format: ImportDateFormat): { day: string } | { error: string } {
  const t = text.trim();
  const shape = DATE_SHAPES[format].re.test(t) ? DATE_SHAPES[format] : ISO.re.test(t) ? ISO : undefined;
  const m = shape?.re.exec(t);
  if (!shape || !m) return { error: ImportError.date };
  const part = (k: 'y' | 'm' | 'd') => m[shape.order.indexOf(k) + 1] ?? '';
  const y = Number(part('y'));
  const monthText = part('m');
  const mo = /^\d+$/.test(monthText) ? Number(monthText) : MONTHS.indexOf(monthText.toLowerCase()) + 1;
  const d = Number(part('d'));
  if (!(mo >= 1 && mo <= 12)) return { error: ImportError.month };
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (y < 1970 || d < 1 || d > last) return { error: ImportError.date };
  return { day: `${y}-${pad(mo)}-${pad(d)}` };
}

/** A date with an optional time `HH:mm[:ss]` → `YYYY-MM-DD HH:mm:ss`. */
export function parseImportDateTime(
  text: string,
  format: ImportDateFormat,
): { at: string; day: string } | { error: string } {
  const m = /^(.*?)(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  const date = parseImportDate(m?.[1] ?? '', format);
  if ('error' in date) return date;
  const [h, mi, s] = [m?.[2], m?.[3], m?.[4]].map((x) => Number(x ?? 0)) as [number, number, number];
  if (h > 23 || mi > 59 || s > 59) return { error: ImportError.date };
  return { at: `${date.day} ${pad(h)}:${pad(mi)}:${pad(s)}`, day: date.day };
}

const TIME_UNITS: Record<string, 'd' | 'w' | 'm' | 'y'> = {
  d: 'd',
  day: 'd',
  days: 'd',
  w: 'w',
  week: 'w',
  weeks: 'w',
  m: 'm',
  month: 'm',
  months: 'm',
  y: 'y',
  year: 'y',
  years: 'y',
};
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

type Value = string | number | number[] | string[] | { t: 'u' | 't'; id: number } | null | undefined;

/** One cell against its column's type; `undefined` value for an empty optional cell. */
function checkCell(
  col: ImportColumn,
  raw: string,
  ctx: ImportCheckContext,
): { value?: Value; error?: string; warning?: string } {
  const text = raw.trim();
  if (text === '') return col.required ? { error: ImportError.required } : {};
  switch (col.type) {
    case 'text':
      return isValidString(text, { max: textMax(col) }) ? { value: text } : { error: ImportError.tooLong };
    case 'unit': {
      // Unit names are case-sensitive; a name that several units share assigns all of them.
      const ids = ctx.units.filter((u) => u.n === text).map((u) => u.id);
      return ids.length ? { value: ids } : { error: ImportError.unit };
    }
    case 'int':
      // Generic checks: an optional sign then digits; counters are never negative (spec §5).
      return isInteger(text, { nonNegative: true })
        ? { value: Number(text) }
        : { error: ImportError.integer };
    case 'decimal': {
      // "An integer or a decimal with a dot" (spec §5), at most 3 decimals (spec §9).
      if (!DECIMAL_TEXT.test(text) || !isFloat(text) || toThousandths(text) === undefined)
        return { error: ImportError.decimal };
      return { value: text };
    }
    case 'date': {
      const d = parseImportDate(text, ctx.dateFormat);
      if ('error' in d) return { error: d.error };
      return d.day > ctx.today ? { error: ImportError.future } : { value: d.day };
    }
    case 'datetime': {
      const d = parseImportDateTime(text, ctx.dateFormat);
      if ('error' in d) return { error: d.error };
      return d.day > ctx.today ? { error: ImportError.future } : { value: d.at };
    }
    case 'timeUnit': {
      const u = TIME_UNITS[text.toLowerCase()];
      return u ? { value: u } : { error: ImportError.timeUnit };
    }
    case 'lineType': {
      // "labour or part, case-insensitive" (spec §5 "Import: line items").
      const t = text.toLowerCase();
      if (t === 'labour' || t === 'labor') return { value: LineItemKind.task };
      if (t === 'part') return { value: LineItemKind.part };
      return { error: ImportError.lineType };
    }
    case 'issueObject':
    case 'issuePriority':
    case 'issueStatus':
      // The issues' columns (import-issues.ts).
      return checkIssueCell(col, text, ctx);
    default:
      // The unit and vehicle profile columns (import-units.ts).
      return checkUnitCell(col, text, ctx);
  }
}

/** Cells of one row against the kind's columns; issues are appended, checked values returned. */
function checkRowCells(
  columns: readonly ImportColumn[],
  cells: ImportCells,
  row: number,
  ctx: ImportCheckContext,
  issues: ImportCellIssue[],
  warnings: ImportCellIssue[],
): Row {
  const out: Row = {};
  for (const col of columns) {
    const r = checkCell(col, cells[col.key] ?? '', ctx);
    if (r.error) issues.push({ row, field: col.key, key: r.error });
    else out[col.key] = r.value;
    if (r.warning) warnings.push({ row, field: col.key, key: r.warning });
  }
  return out;
}

function finishCheck(
  kind: ImportKind,
  values: Row[],
  ctx: ImportCheckContext,
  issues: ImportCellIssue[],
  warnings: ImportCellIssue[],
  built?: ImportPayload[],
): ImportCheck {
  const payloads = built ?? build[kind](values, ctx, issues, 0);
  issues.sort((a, b) => a.row - b.row);
  return { issues, warnings, payloads: issues.length ? [] : payloads };
}

/** Kinds whose payloads are built row by row (no rule across rows): built step by step as well. */
const ROW_WISE: ReadonlySet<ImportKind> = new Set(['services', 'fuelfillings', 'issues']);

/**
 * Checks every cell of every row of a kind and builds the payloads of the batch writers. All issues are
 * listed (a row may have several); payloads are returned only when there is none.
 */
export function checkImportRows(
  kind: ImportKind,
  rows: readonly ImportCells[],
  ctx: ImportCheckContext,
): ImportCheck {
  const columns = IMPORT_COLUMNS[kind];
  const issues: ImportCellIssue[] = [];
  const warnings: ImportCellIssue[] = [];
  const values = rows.map((cells, row) => checkRowCells(columns, cells, row, ctx, issues, warnings));
  return finishCheck(kind, values, ctx, issues, warnings);
}

/** Rows checked between two calls of the step callback of `checkImportRowsInSteps`. */
export const IMPORT_CHECK_STEP = 500;

/**
 * `checkImportRows` in steps: after every `every` rows (and after the last) it awaits `step(done)`, so that
 * a server can let other work run between steps and report "rows checked". Same result.
 */
export async function checkImportRowsInSteps(
  kind: ImportKind,
  rows: readonly ImportCells[],
  ctx: ImportCheckContext,
  step: (done: number) => Promise<void> | void,
  every = IMPORT_CHECK_STEP,
): Promise<ImportCheck> {
  const columns = IMPORT_COLUMNS[kind];
  const issues: ImportCellIssue[] = [];
  const warnings: ImportCellIssue[] = [];
  const values: Row[] = [];
  const built: ImportPayload[] = [];
  for (let start = 0; start < rows.length; start += every) {
    const end = Math.min(rows.length, start + every);
    for (let row = start; row < end; row++)
      values.push(checkRowCells(columns, rows[row] ?? {}, row, ctx, issues, warnings));
    if (ROW_WISE.has(kind)) built.push(...build[kind](values.slice(start, end), ctx, issues, start));
    await step(end);
  }
  return finishCheck(kind, values, ctx, issues, warnings, ROW_WISE.has(kind) ? built : undefined);
}

/** What the interval rules need besides the rows (spec §5 "Import: intervals"). */
export interface IntervalRuleContext {
  /** The fleet's local date today, YYYY-MM-DD. */
  today: string;
  /** The fleet's time zone value, to read a last-service date given as Unix seconds. */
  tz?: number;
  /** Interval names of the fleet (duplicates refused, case-insensitive). */
  intervalNames?: readonly string[];
  /** The fleet's objects as `t:id` (`u:12`); when given, an assignment of any other object is refused. */
  objects?: ReadonlySet<string>;
}

/** An interval rule's finding: the import column (`field`), the typed row's path (`path`), the reason. */
export interface IntervalRowIssue extends ImportCellIssue {
  path: string;
}

/**
 * The rules of spec §5 "Import: intervals" on typed interval rows, as the cells become them and as the spec
 * §7 route `POST /fleets/{id}/import {intervals}` receives them: one definition for the preview and both
 * routes. The name is new in the fleet and in the batch; the objects exist in the fleet; a last-service date
 * is a real day (month 1-12) not later than today; the time frequency has at most three digits; at least
 * one frequency is set. Integers are the contract's business (and the cells' check).
 */
export function intervalImportIssues(
  rows: readonly IntervalImportRow[],
  ctx: IntervalRuleContext,
): IntervalRowIssue[] {
  const issues: IntervalRowIssue[] = [];
  const taken = new Set((ctx.intervalNames ?? []).map((n) => n.toLowerCase()));
  rows.forEach((r, row) => {
    const add = (field: string, path: string, key: string) => issues.push({ row, field, path, key });
    const name = r.n.toLowerCase();
    if (taken.has(name)) add('name', 'n', ImportError.duplicate);
    taken.add(name);
    if ((r.dd ?? 0) > INTERVAL_TIME_FREQUENCY_MAX) add('time_frequency', 'dd', ImportError.timeFrequency);
    const on = (flag: number | undefined, value: number | undefined) => (flag ?? 1) !== 0 && (value ?? 0) > 0;
    if (!on(r.cnme, r.cnmd) && !on(r.cnehe, r.cnehd) && !on(r.de, r.dd))
      add('mileage_frequency', 'cnmd', ImportError.noFrequency);
    (r.u ?? []).forEach((a, i) => {
      if (ctx.objects && !ctx.objects.has(`${a.t ?? 'u'}:${a.id}`))
        add('unit', `u.${i}.id`, ImportError.unit);
      if (a.ltm === undefined) return;
      const day =
        typeof a.ltm === 'number'
          ? { day: localDate(ctx.tz ?? 0, a.ltm) }
          : parseImportDate(a.ltm, 'YYYY-MM-DD');
      if ('error' in day) add('last_date', `u.${i}.ltm`, day.error);
      else if (day.day > ctx.today) add('last_date', `u.${i}.ltm`, ImportError.future);
    });
  });
  return issues;
}

type Row = Record<string, Value>;
/** Builds the payloads of `values`, whose first is the row `offset` of the file. */
type Builder = (
  values: Row[],
  ctx: ImportCheckContext,
  issues: ImportCellIssue[],
  offset: number,
) => ImportPayload[];
const str = (v: Value) => v as string | undefined;
const num = (v: Value) => v as number | undefined;
/** `o` without its undefined fields (a loop: 10,000 rows pass here). */
const defined = <T extends object>(o: T): T => {
  const out: Record<string, unknown> = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out as T;
};

const build: Record<ImportKind, Builder> = {
  intervals(values, ctx, issues) {
    // Rows with the same name make one interval: the first row's frequencies, every row's units.
    const byName = new Map<string, Extract<ImportPayload, { kind: 'intervals' }>>();
    values.forEach((v, row) => {
      const name = str(v.name);
      if (name === undefined) return;
      const key = name.toLowerCase();
      const u = ((v.unit as number[] | undefined) ?? []).map((id) =>
        defined({
          id,
          t: 'u' as const,
          lcnm: num(v.last_mileage),
          lceh: num(v.last_engine_hours),
          ltm: str(v.last_date),
        }),
      );
      const seen = byName.get(key);
      if (seen) {
        seen.rows.push(row);
        seen.data.u = [...(seen.data.u ?? []), ...u.filter((x) => !seen.data.u?.some((y) => y.id === x.id))];
        return;
      }
      const cnmd = num(v.mileage_frequency) ?? 0;
      const cnehd = num(v.engine_hours_frequency) ?? 0;
      const dd = num(v.time_frequency) ?? 0;
      const data: IntervalImportRow = defined({
        n: name,
        description: str(v.description),
        cnme: cnmd ? 1 : 0,
        cnmd,
        cnehe: cnehd ? 1 : 0,
        cnehd,
        de: dd ? 1 : 0,
        dd,
        du: (str(v.time_unit) as IntervalImportRow['du']) ?? 'm',
        u,
      });
      byName.set(key, { kind: 'intervals', rows: [row], data });
    });
    const payloads = [...byName.values()];
    // The typed rules the spec §7 route applies as well; a finding names the interval's first row.
    for (const i of intervalImportIssues(
      payloads.map((p) => p.data),
      ctx,
    ))
      issues.push({ row: payloads[i.row]?.rows[0] ?? i.row, field: i.field, key: i.key });
    return payloads;
  },
  services(values, _ctx, issues, offset) {
    return values.flatMap((v, index) => {
      const row = offset + index;
      const start = str(v.start_date);
      const end = str(v.end_date);
      if (start && end && end < start)
        issues.push({ row, field: 'end_date', key: ImportError.endBeforeStart });
      // A row with an end date is closed history; with only a start it is in progress; else Due (spec §4).
      const f = end ? 8 : start ? 2 : 1;
      return ((v.unit as number[] | undefined) ?? []).map((uid) => ({
        kind: 'services' as const,
        rows: [row],
        data: defined({
          t: 'u' as const,
          uid,
          f,
          n: str(v.name) ?? '',
          description: str(v.description),
          start_date: start,
          end_date: end,
          mileage: num(v.mileage),
          engine_hours: num(v.engine_hours),
          total_cost: str(v.total_cost),
        }) as ServiceImportRow,
      }));
    });
  },
  fuelfillings(values, _ctx, issues, offset) {
    return values.flatMap((v, index) => {
      const row = offset + index;
      if (v.volume !== undefined && toThousandths(str(v.volume) ?? '') === 0)
        issues.push({ row, field: 'volume', key: ImportError.positive });
      // The total is volume × price or entered by hand: one of them is needed (PRODUCT.md "Fuel fillings").
      if (v.price === undefined && v.total_cost === undefined)
        issues.push({ row, field: 'price', key: ImportError.priceOrTotal });
      return ((v.unit as number[] | undefined) ?? []).map((uid) => ({
        kind: 'fuelfillings' as const,
        rows: [row],
        data: defined({
          uid,
          date: str(v.date),
          volume: str(v.volume) ?? '0',
          price: str(v.price),
          total_cost: str(v.total_cost),
          mileage: num(v.mileage),
          fuel_type: str(v.fuel_type),
          station: str(v.station),
          description: str(v.description),
        }) as FuelFillingImportRow,
      }));
    });
  },
  lineitems(values, ctx, issues) {
    // No existing item with the same name and type (spec §5), nor twice in one file.
    const taken = new Set((ctx.lineItems ?? []).map((i) => `${i.t}:${i.n.toLowerCase()}`));
    return values.flatMap((v, row) => {
      const n = str(v.name);
      const t = num(v.type);
      if (n === undefined || t === undefined) return [];
      const key = `${t}:${n.toLowerCase()}`;
      if (taken.has(key)) issues.push({ row, field: 'name', key: ImportError.duplicate });
      taken.add(key);
      return [
        {
          kind: 'lineitems' as const,
          rows: [row],
          data: { fid: ctx.fleetId, n, t: t as 1 | 2, c: str(v.cost) ?? '0' },
        },
      ];
    });
  },
  issues(values, _ctx, issues, offset) {
    return buildIssueRows(values, issues, offset).map((p) => ({ kind: 'issues' as const, ...p }));
  },
  units(values, ctx, issues, offset) {
    const { names, devices } = unitRuleSets(ctx);
    return buildUnitRows(values, ctx, issues, offset, names, devices).map((p) => ({
      kind: 'units' as const,
      ...p,
    }));
  },
};

/**
 * Column titles → field keys (docs/product.md "Imports"), in passes, each column taken once: a remembered
 * mapping (title → key); then the field's key or its titles in Fleetkeep's UI in any of the 23 languages
 * (its import title, and the export and list columns that name it: a report's "Object" is the unit, its
 * "Cost" the total cost); then the column titles of common exports (LubeLogger, Fleetio). Titles compare
 * without case, spaces, underscores, dashes or dots.
 */
export function guessImportMapping(
  kind: ImportKind,
  titles: readonly string[],
  remembered: Readonly<Record<string, string>> = {},
): Record<string, number> {
  const norm = (s: string) => s.toLowerCase().replace(/[\s_\-.]+/g, '');
  const columns = titles.map(norm);
  const out: Record<string, number> = {};
  const taken = new Set<number>();
  const passes: ((key: string) => readonly string[])[] = [
    (key) => (remembered[key] ? [remembered[key]] : []),
    (key) => [key, ...(IMPORT_TITLES[kind]?.[key] ?? [])],
    (key) => IMPORT_SYNONYMS[kind]?.[key] ?? [],
  ];
  for (const wanted of passes)
    for (const { key } of IMPORT_COLUMNS[kind]) {
      if (key in out) continue;
      for (const w of wanted(key)) {
        const i = columns.findIndex((c, at) => c === norm(w) && !taken.has(at));
        if (i >= 0) {
          out[key] = i;
          taken.add(i);
          break;
        }
      }
    }
  return out;
}

/** A parsed grid → mapped rows (field key → cell text), skipping the header line when there is one. */
export function mapImportRows(
  grid: readonly (readonly string[])[],
  mapping: Readonly<Record<string, number>>,
  header: boolean,
): ImportCells[] {
  const body = header ? grid.slice(1) : grid;
  return body
    .filter((cells) => cells.some((c) => c.trim() !== ''))
    .map((cells) => Object.fromEntries(Object.entries(mapping).map(([k, i]) => [k, cells[i] ?? ''])));
}
