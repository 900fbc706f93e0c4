/**
 * Inspections (DVIR) and their forms: the pure rules (docs/product.md "Inspections"). The wire shapes are
 * in contracts/inspections.ts; the server applies these in modules/inspections.
 */

import type { IssuePriority } from './issues.js';

/** Kinds of a form item: pass/fail, number or meter, text, photo, signature. */
export const INSPECTION_ITEM_KINDS = ['pf', 'num', 'text', 'photo', 'sig'] as const;
export type InspectionItemKind = (typeof INSPECTION_ITEM_KINDS)[number];

/** Defect severities of EU Directive 2014/45/EU (Annex I): minor, major, dangerous. */
export const DEFECT_SEVERITIES = ['minor', 'major', 'dangerous'] as const;
export type DefectSeverity = (typeof DEFECT_SEVERITIES)[number];

/**
 * The priority of the issue a defect opens (docs/product.md "Inspections"): minor → medium, major →
 * high, dangerous → critical. No defect opens a low one: a failed item is never "when convenient".
 */
export const SEVERITY_PRIORITY: Readonly<Record<DefectSeverity, IssuePriority>> = {
  minor: 'medium',
  major: 'high',
  dangerous: 'critical',
};

export function priorityOfSeverity(severity: DefectSeverity): IssuePriority {
  return SEVERITY_PRIORITY[severity];
}

/** The worse of severities (dangerous > major > minor), or null for none. */
export function worstSeverity(severities: Iterable<DefectSeverity>): DefectSeverity | null {
  let worst = -1;
  for (const s of severities) worst = Math.max(worst, DEFECT_SEVERITIES.indexOf(s));
  return worst < 0 ? null : DEFECT_SEVERITIES[worst]!;
}

/** How a mechanic certifies a defect (49 CFR 396.11(a)(3)): repaired, or repair unnecessary. */
export const CERTIFICATIONS = ['repaired', 'unnecessary'] as const;
export type Certification = (typeof CERTIFICATIONS)[number];

/** The key of the built-in DVIR form (there is one per fleet; it is not editable, only copyable). */
export const BUILTIN_DVIR = 'dvir';

/**
 * The eleven items of 49 CFR 396.11(a)(1), in the regulation's order, with the severity a fail carries
 * by default (the driver may change it). The labels are locale keys `inspections.dvir.<key>`; the
 * English text is kept here for the server's exports and for a reader without the locale.
 */
export const DVIR_ITEMS: readonly { key: string; l: string; sev: DefectSeverity }[] = [
  { key: 'serviceBrakes', l: 'Service brakes including trailer brake connections', sev: 'dangerous' },
  { key: 'parkingBrake', l: 'Parking brake', sev: 'major' },
  { key: 'steering', l: 'Steering mechanism', sev: 'dangerous' },
  { key: 'lighting', l: 'Lighting devices and reflectors', sev: 'major' },
  { key: 'tires', l: 'Tires', sev: 'major' },
  { key: 'horn', l: 'Horn', sev: 'minor' },
  { key: 'wipers', l: 'Windshield wipers', sev: 'minor' },
  { key: 'mirrors', l: 'Rear-vision mirrors', sev: 'minor' },
  { key: 'coupling', l: 'Coupling devices', sev: 'dangerous' },
  { key: 'wheels', l: 'Wheels and rims', sev: 'major' },
  { key: 'emergency', l: 'Emergency equipment', sev: 'major' },
];

/** The locale key of a built-in item's label. */
export const dvirLabelKey = (key: string) => `inspections.dvir.${key}`;

/** An item of a form (and of an inspection's copy of it). */
export interface InspectionItem {
  k: InspectionItemKind;
  /** Label as written (English for the built-in items). */
  l: string;
  /** Built-in items: the locale key of the label; null for items a person wrote. */
  key: string | null;
  /** Pass/fail items: the severity a fail carries by default; null for other kinds. */
  sev: DefectSeverity | null;
  /** Non pass/fail items: an answer is required (pass/fail items always are). */
  req: boolean;
}

/** The built-in DVIR's items. */
export function dvirItems(): InspectionItem[] {
  return DVIR_ITEMS.map((d) => ({ k: 'pf', l: d.l, key: dvirLabelKey(d.key), sev: d.sev, req: true }));
}

/** The result of one item as submitted. */
export interface InspectionResult {
  /** Index of the item in the form's items. */
  i: number;
  /** Pass/fail items: passed (true) or failed (false). */
  ok?: boolean | null;
  /** Severity of a fail, when the submitter changed the item's default. */
  sev?: DefectSeverity | null;
  /** Number items. */
  v?: number | null;
  /** Text items, and a remark on any item. */
  tx?: string | null;
  /** Photo and signature items (and a photo of a failed item): the image was sent. */
  img?: boolean;
}

export interface ResultProblem {
  /** Index in the results list, or null for an item without a result. */
  row: number | null;
  /** Index of the item. */
  item: number;
  reason: string;
}

/**
 * What is wrong with the results of a submit against the form's items: an index outside the form, an
 * item answered twice, a pass/fail item without its answer, a required answer missing, an answer of
 * another kind than the item (a number for a text item).
 */
export function checkResults(items: readonly InspectionItem[], results: readonly InspectionResult[]) {
  const problems: ResultProblem[] = [];
  const seen = new Map<number, number>();
  for (const [row, r] of results.entries()) {
    const item = items[r.i];
    if (!item) {
      problems.push({ row, item: r.i, reason: 'No such item in the form' });
      continue;
    }
    if (seen.has(r.i)) {
      problems.push({ row, item: r.i, reason: 'The item is answered twice' });
      continue;
    }
    seen.set(r.i, row);
    const has = {
      ok: r.ok !== undefined && r.ok !== null,
      v: r.v !== undefined && r.v !== null,
      img: r.img === true,
    };
    if (item.k !== 'pf' && (has.ok || (r.sev ?? null) !== null))
      problems.push({ row, item: r.i, reason: 'Only pass/fail items pass or fail' });
    if (item.k !== 'num' && has.v)
      problems.push({ row, item: r.i, reason: 'Only number items take a number' });
    if (has.img && item.k !== 'photo' && item.k !== 'sig' && !(item.k === 'pf' && r.ok === false))
      problems.push({
        row,
        item: r.i,
        reason: 'Only photo and signature items, or a failed item, take an image',
      });
    if (item.k === 'pf' && r.ok !== false && (r.sev ?? null) !== null)
      problems.push({ row, item: r.i, reason: 'Only a failed item carries a severity' });
  }
  items.forEach((item, i) => {
    const row = seen.get(i);
    const r = row === undefined ? undefined : results[row];
    const answered =
      r !== undefined &&
      (item.k === 'pf'
        ? r.ok !== undefined && r.ok !== null
        : item.k === 'num'
          ? r.v !== undefined && r.v !== null
          : item.k === 'text'
            ? (r.tx ?? '').trim() !== ''
            : r.img === true);
    if (!answered && (item.k === 'pf' || item.req))
      problems.push({
        row: row ?? null,
        item: i,
        reason: item.k === 'pf' ? 'Pass or fail is required' : 'An answer is required',
      });
  });
  return problems;
}

export interface Defect {
  /** Index of the failed item. */
  i: number;
  severity: DefectSeverity;
}

/** The defects of a submit: each failed pass/fail item, with its severity (the submitter's or the item's). */
export function defectsOf(items: readonly InspectionItem[], results: readonly InspectionResult[]): Defect[] {
  return results
    .filter((r) => items[r.i]?.k === 'pf' && r.ok === false)
    .sort((a, b) => a.i - b.i)
    .map((r) => ({ i: r.i, severity: r.sev ?? items[r.i]!.sev ?? 'major' }));
}

/** Retention of submitted inspections, months: at least three (docs/product.md), twelve by default. */
export const INSPECTION_RETENTION_MIN_MONTHS = 3;
export const INSPECTION_RETENTION_MAX_MONTHS = 120;
export const INSPECTION_RETENTION_DEFAULT_MONTHS = 12;

/**
 * The time before which submitted inspections are deleted: `months` calendar months before `at` (UTC,
 * Unix seconds), the day of month clamped to the shorter month (31 May − 3 months = 28/29 February).
 */
export function retentionCutoff(at: number, months: number): number {
  const d = new Date(at * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - Math.max(months, INSPECTION_RETENTION_MIN_MONTHS);
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

/** State of an inspection as the list shows it. */
export type InspectionState = 'ok' | 'defects' | 'certified';

/** No defects: ok; some defect not certified yet: defects; every defect certified: certified. */
export function inspectionState(defects: readonly { cert: Certification | null }[]): InspectionState {
  if (defects.length === 0) return 'ok';
  return defects.every((d) => d.cert !== null) ? 'certified' : 'defects';
}

/**
 * Whether the next inspection of the object asks to acknowledge this report (49 CFR 396.13(c)): it
 * had defects and nobody acknowledged it yet.
 */
export function needsAcknowledgement(last: { nd: number; ak: unknown } | null | undefined): boolean {
  return !!last && last.nd > 0 && last.ak === null;
}

/** A report cell of an item: the label, or the locale key of a built-in item (worded by the reader). */
export const itemReportValue = (item: Pick<InspectionItem, 'l' | 'key'>) => item.key ?? item.l;

/** The words of an `inspection_item` report cell: a built-in item's key translated, else the label. */
export function itemReportText(value: string, t: (key: string) => string): string {
  return value.startsWith('inspections.dvir.') ? t(value) : value;
}
