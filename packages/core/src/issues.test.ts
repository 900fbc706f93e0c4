import { describe, expect, it } from 'vitest';
import {
  type IssueState,
  issueSearchText,
  issueTransition,
  notifiesAtOnce,
  personActions,
  priorityOfRank,
  priorityRank,
} from './issues.js';

const open: IssueState = { status: 'open', workOrderId: null, note: '' };
const inWork: IssueState = { status: 'workorder', workOrderId: 7, note: '' };

describe('issue priorities', () => {
  it('rank low 1 … critical 4 and back; ranks out of range are clamped', () => {
    expect(['low', 'medium', 'high', 'critical'].map((p) => priorityRank(p as never))).toEqual([1, 2, 3, 4]);
    expect([1, 2, 3, 4, 0, 9].map(priorityOfRank)).toEqual([
      'low',
      'medium',
      'high',
      'critical',
      'low',
      'critical',
    ]);
  });
  it('only high and critical notify the channels at once', () => {
    expect(['low', 'medium', 'high', 'critical'].filter((p) => notifiesAtOnce(p as never))).toEqual([
      'high',
      'critical',
    ]);
  });
});

describe('issue transitions', () => {
  it('resolve and close end an open issue; close needs a note, trimmed', () => {
    expect(issueTransition(open, { action: 'resolve' })).toEqual({
      ok: true,
      ends: true,
      state: { status: 'resolved', workOrderId: null, note: '' },
    });
    expect(issueTransition(open, { action: 'close', note: '  ' })).toEqual({
      ok: false,
      reason: 'note_required',
    });
    expect(issueTransition(open, { action: 'close', note: ' worn as designed ' })).toEqual({
      ok: true,
      ends: true,
      state: { status: 'closed', workOrderId: null, note: 'worn as designed' },
    });
  });

  it('reopen brings a resolved or closed issue back to open, clearing the note', () => {
    for (const status of ['resolved', 'closed'] as const)
      expect(issueTransition({ status, workOrderId: 3, note: 'x' }, { action: 'reopen' })).toEqual({
        ok: true,
        ends: false,
        state: { status: 'open', workOrderId: null, note: '' },
      });
    expect(issueTransition(open, { action: 'reopen' })).toEqual({ ok: false, reason: 'not_allowed' });
  });

  it('a work order takes an open issue (needs its id), lets it go, or resolves it keeping the link', () => {
    expect(issueTransition(open, { action: 'toWorkOrder' })).toEqual({
      ok: false,
      reason: 'work_order_required',
    });
    expect(issueTransition(open, { action: 'toWorkOrder', workOrderId: 7 })).toEqual({
      ok: true,
      ends: false,
      state: inWork,
    });
    expect(issueTransition(inWork, { action: 'fromWorkOrder' })).toMatchObject({ ok: true, state: open });
    expect(issueTransition(inWork, { action: 'completeWorkOrder' })).toEqual({
      ok: true,
      ends: true,
      state: { status: 'resolved', workOrderId: 7, note: '' },
    });
  });

  it('an issue in a work order is not resolved, closed or taken again by hand', () => {
    for (const action of ['resolve', 'close', 'toWorkOrder', 'reopen'] as const)
      expect(issueTransition(inWork, { action, note: 'n', workOrderId: 8 })).toEqual({
        ok: false,
        reason: 'not_allowed',
      });
    expect(issueTransition(open, { action: 'completeWorkOrder' })).toEqual({
      ok: false,
      reason: 'not_allowed',
    });
  });

  it('a person’s actions per status', () => {
    expect(personActions('open')).toEqual(['resolve', 'close']);
    expect(personActions('workorder')).toEqual([]);
    expect(personActions('resolved')).toEqual(['reopen']);
    expect(personActions('closed')).toEqual(['reopen']);
  });

  it('search text is the lower-cased title and description', () => {
    expect(issueSearchText('Brake NOISE', 'Front Left')).toBe('brake noise\nfront left');
  });
});
