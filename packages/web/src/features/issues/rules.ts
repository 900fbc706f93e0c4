import {
  ACTIVE_ISSUE_STATUSES,
  ISSUE_PRIORITIES,
  ISSUE_STATUSES,
  type IssueCreateInput,
  type IssuePriority,
  type IssueStatus,
} from '@fleetkeep/core';

/** Rules of the issues screens (docs/product.md "Issues"), pure for the unit tests. */

/** The status filter of the list: the active ones (default), all, or one status. */
export type StatusFilter = 'active' | 'all' | IssueStatus;
export const STATUS_FILTERS: readonly StatusFilter[] = ['active', 'all', ...ISSUE_STATUSES];

export interface IssueFilters {
  status: StatusFilter;
  priority: IssuePriority | null;
  /** `u12` or `t3`: one unit or trailer. */
  object: { type: 'u' | 't'; id: number } | null;
}

/** The filters as the URL holds them (`status`, `priority`, `object`); unknown values fall back. */
export function decodeFilters(params: URLSearchParams): IssueFilters {
  const status = params.get('status') as StatusFilter | null;
  const priority = params.get('priority') as IssuePriority | null;
  const object = /^([ut])(\d+)$/.exec(params.get('object') ?? '');
  return {
    status: status && STATUS_FILTERS.includes(status) ? status : 'active',
    priority: priority && ISSUE_PRIORITIES.includes(priority) ? priority : null,
    object: object ? { type: object[1] as 'u' | 't', id: Number(object[2]) } : null,
  };
}

/** The list query of the filters (the server filters; the table searches and sorts what came). */
export function filtersQuery(f: IssueFilters): {
  status?: string;
  priority?: string;
  object_type?: 'u' | 't';
  object_id?: number;
} {
  return {
    ...(f.status === 'active' ? { status: ACTIVE_ISSUE_STATUSES.join(',') } : {}),
    ...(f.status !== 'active' && f.status !== 'all' ? { status: f.status } : {}),
    ...(f.priority ? { priority: f.priority } : {}),
    ...(f.object ? { object_type: f.object.type, object_id: f.object.id } : {}),
  };
}

/** The report dialog's draft. */
export interface IssueDraft {
  /** `u12` / `t3`, or '' before one is chosen. */
  object: string;
  title: string;
  description: string;
  priority: IssuePriority;
}

export const newDraft = (object = ''): IssueDraft => ({
  object,
  title: '',
  description: '',
  priority: 'medium',
});

/** The POST body of a draft (the object '' becomes an invalid id the contract names). */
export function draftBody(d: IssueDraft): IssueCreateInput {
  const m = /^([ut])(\d+)$/.exec(d.object);
  return {
    object_type: (m?.[1] as 'u' | 't' | undefined) ?? 'u',
    object_id: m ? Number(m[2]) : 0,
    title: d.title,
    description: d.description,
    priority: d.priority,
  };
}

/** Badge colours per priority and status. */
export const PRIORITY_COLOR: Record<IssuePriority, string> = {
  low: 'gray',
  medium: 'blue',
  high: 'orange',
  critical: 'red',
};
export const STATUS_COLOR: Record<IssueStatus, string> = {
  open: 'red',
  workorder: 'orange',
  resolved: 'green',
  closed: 'gray',
};

/** Photos chosen in the report dialog: images only, within the caps. */
export function photosProblem(
  files: readonly { size: number; type: string }[],
  maxFiles: number,
  maxBytes: number,
) {
  if (files.length > maxFiles) return 'count' as const;
  if (files.reduce((n, f) => n + f.size, 0) > maxBytes) return 'size' as const;
  if (files.some((f) => !f.type.startsWith('image/'))) return 'type' as const;
  return null;
}
