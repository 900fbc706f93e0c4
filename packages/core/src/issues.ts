/**
 * Issues: the defects of a unit or trailer (docs/product.md "Issues"). Pure rules shared by the server,
 * the web and the work-orders module: the priorities and their order, the statuses and which change
 * leads where, and which priorities notify the channels at once.
 */

/** Priorities, lowest first; stored as their rank 1..4 so that lists sort by urgency. */
export const ISSUE_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];

/**
 * Statuses: open → in a work order → resolved, or closed as not a defect (with a note). `workorder`
 * is set and cleared by the work-orders module only (`toWorkOrder`, `fromWorkOrder`).
 */
export const ISSUE_STATUSES = ['open', 'workorder', 'resolved', 'closed'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** The statuses of an issue that still needs work (the "active" filter, the dashboard's count). */
export const ACTIVE_ISSUE_STATUSES: readonly IssueStatus[] = ['open', 'workorder'];

export const priorityRank = (p: IssuePriority): number => ISSUE_PRIORITIES.indexOf(p) + 1;
export function priorityOfRank(rank: number): IssuePriority {
  return ISSUE_PRIORITIES[Math.min(Math.max(Math.trunc(rank), 1), ISSUE_PRIORITIES.length) - 1]!;
}

export const isActiveIssue = (status: IssueStatus): boolean => ACTIVE_ISSUE_STATUSES.includes(status);

/**
 * What changes an issue's status. People: `resolve` (fixed outside a work order), `close` (not a
 * defect; needs a note), `reopen` (back to open). The work-orders module: `toWorkOrder` (linked to a
 * work order), `fromWorkOrder` (unlinked before completion), `completeWorkOrder` (its work order was
 * completed).
 */
export type IssueAction =
  | 'resolve'
  | 'close'
  | 'reopen'
  | 'toWorkOrder'
  | 'fromWorkOrder'
  | 'completeWorkOrder';

/** Why a transition is refused; the server turns it into a 409 with this reason. */
export type IssueTransitionRefusal = 'not_allowed' | 'note_required' | 'work_order_required';

export interface IssueTransitionInput {
  action: IssueAction;
  /** The note of a close or resolve (trimmed by the contract). */
  note?: string | undefined;
  /** The work order of `toWorkOrder`. */
  workOrderId?: number | null | undefined;
}

export interface IssueState {
  status: IssueStatus;
  workOrderId: number | null;
  note: string;
}

export type IssueTransition =
  | {
      ok: true;
      state: IssueState /** The issue ends (resolved or closed) with this change. */;
      ends: boolean;
    }
  | { ok: false; reason: IssueTransitionRefusal };

const FROM: Record<IssueAction, readonly IssueStatus[]> = {
  // A person resolves an open issue; one in a work order is resolved by completing the work order.
  resolve: ['open'],
  close: ['open'],
  reopen: ['resolved', 'closed'],
  toWorkOrder: ['open'],
  fromWorkOrder: ['workorder'],
  completeWorkOrder: ['workorder'],
};

/** The status an action leads to from `state`, or why it may not (spec: issue 29 "Issues", "Work orders"). */
export function issueTransition(state: IssueState, input: IssueTransitionInput): IssueTransition {
  if (!FROM[input.action].includes(state.status)) return { ok: false, reason: 'not_allowed' };
  const note = input.note?.trim() ?? '';
  switch (input.action) {
    case 'resolve':
      return { ok: true, ends: true, state: { status: 'resolved', workOrderId: null, note } };
    case 'close':
      if (note === '') return { ok: false, reason: 'note_required' };
      return { ok: true, ends: true, state: { status: 'closed', workOrderId: null, note } };
    case 'reopen':
      return { ok: true, ends: false, state: { status: 'open', workOrderId: null, note: '' } };
    case 'toWorkOrder':
      if (!input.workOrderId) return { ok: false, reason: 'work_order_required' };
      return {
        ok: true,
        ends: false,
        state: { status: 'workorder', workOrderId: input.workOrderId, note: '' },
      };
    case 'fromWorkOrder':
      return { ok: true, ends: false, state: { status: 'open', workOrderId: null, note: '' } };
    case 'completeWorkOrder':
      // The work order stays linked: the resolved issue names what fixed it.
      return { ok: true, ends: true, state: { status: 'resolved', workOrderId: state.workOrderId, note } };
  }
}

/** The actions a person may take from a status on the issue page (the work order's are not theirs). */
export function personActions(status: IssueStatus): ('resolve' | 'close' | 'reopen')[] {
  return (['resolve', 'close', 'reopen'] as const).filter((a) => FROM[a].includes(status));
}

/**
 * Whether a newly reported issue notifies the channels at once (NotificationKind.issueReported): high
 * and critical only; low and medium wait for the lists and the dashboard (docs/product.md "Issues").
 */
export const notifiesAtOnce = (priority: IssuePriority): boolean =>
  priority === 'high' || priority === 'critical';

/** Lower-cased text the list's search matches (title and description). */
export function issueSearchText(title: string, description: string): string {
  return `${title}\n${description}`.toLowerCase();
}
