import type { ImportCellIssue, ImportColumn } from './contracts/imports.js';
import { ISSUE_PRIORITIES, type IssuePriority } from './issues.js';

/**
 * The issues import (docs/product.md "Issues"): one issue per row of a unit or trailer of the fleet,
 * named as the fleet names it. A unit's name wins over a trailer's of the same name; a name several
 * units share is refused, since an issue belongs to one object. Priority low, medium, high or critical
 * (medium when empty); status open, resolved or closed ("not a defect"; open when empty), an issue "in a
 * work order" needs the work order and is not imported; the reported date is a day not after today
 * (today when empty).
 */

/** The statuses a row may give (an issue in a work order cannot be imported without the work order). */
export const ISSUE_IMPORT_STATUSES = ['open', 'resolved', 'closed'] as const;
export type IssueImportStatus = (typeof ISSUE_IMPORT_STATUSES)[number];

/** Reasons of the issues rules, as i18n keys. */
export const IssueImportError = {
  object: 'issues.importObject',
  ambiguous: 'issues.importAmbiguous',
  priority: 'issues.importPriority',
  status: 'issues.importStatus',
} as const;

/** What the issue rules need besides the rows: the fleet's units and trailers by name. */
export interface IssueRuleContext {
  units: readonly { id: number; n: string }[];
  trailers?: readonly { id: number; n: string }[];
}

/** A checked row as the issues writer takes it; `reported_date` YYYY-MM-DD in the fleet's zone. */
export interface IssueImportRow {
  object_type: 'u' | 't';
  object_id: number;
  title: string;
  description?: string;
  priority: IssuePriority;
  reported_date?: string;
  status: IssueImportStatus;
}

/** Words a status cell may hold, compared without case: the keys and the English labels. */
const STATUS_WORDS: Record<string, IssueImportStatus> = {
  open: 'open',
  resolved: 'resolved',
  closed: 'closed',
  'not a defect': 'closed',
};

/** A non-empty cell of one of the issues' column types. */
export function checkIssueCell(
  col: ImportColumn,
  text: string,
  ctx: IssueRuleContext,
): { value?: string | { t: 'u' | 't'; id: number }; error?: string } {
  switch (col.type) {
    case 'issueObject': {
      const units = ctx.units.filter((u) => u.n === text);
      if (units.length > 1) return { error: IssueImportError.ambiguous };
      if (units.length === 1) return { value: { t: 'u', id: units[0]!.id } };
      const trailers = (ctx.trailers ?? []).filter((p) => p.n === text);
      if (trailers.length > 1) return { error: IssueImportError.ambiguous };
      if (trailers.length === 1) return { value: { t: 't', id: trailers[0]!.id } };
      return { error: IssueImportError.object };
    }
    case 'issuePriority': {
      const p = text.toLowerCase() as IssuePriority;
      return ISSUE_PRIORITIES.includes(p) ? { value: p } : { error: IssueImportError.priority };
    }
    case 'issueStatus': {
      const s = STATUS_WORDS[text.toLowerCase().replace(/\s+/g, ' ')];
      return s ? { value: s } : { error: IssueImportError.status };
    }
    default:
      return { error: IssueImportError.object };
  }
}

type Values = Record<string, unknown>;

/** The payloads of checked rows, the first of them the file's row `offset`: one issue per row. */
export function buildIssueRows(
  values: readonly Values[],
  _issues: ImportCellIssue[],
  offset: number,
): { rows: number[]; data: IssueImportRow }[] {
  return values.flatMap((v, index) => {
    const object = v.object as { t: 'u' | 't'; id: number } | undefined;
    const title = v.title as string | undefined;
    if (!object || title === undefined) return [];
    const data: IssueImportRow = {
      object_type: object.t,
      object_id: object.id,
      title,
      priority: (v.priority as IssuePriority | undefined) ?? 'medium',
      status: (v.status as IssueImportStatus | undefined) ?? 'open',
    };
    if (v.description !== undefined) data.description = v.description as string;
    if (v.reported_date !== undefined) data.reported_date = v.reported_date as string;
    return [{ rows: [offset + index], data }];
  });
}
