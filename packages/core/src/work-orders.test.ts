import { describe, expect, it } from 'vitest';
import {
  downtimeSeconds,
  downtimeStart,
  isWorkOrderOverdue,
  linesTotalThousandths,
  workOrderActions,
  workOrderTransition,
} from './work-orders.js';

describe('work order status rules', () => {
  const none = { actualStart: null, actualEnd: null };

  it('start sets the actual start once; hold and start again keep it', () => {
    const started = workOrderTransition('open', none, 'start', 100);
    expect(started).toEqual({ ok: true, status: 'in_progress', actualStart: 100, actualEnd: null });
    expect(workOrderTransition('in_progress', { actualStart: 100, actualEnd: null }, 'hold', 200)).toEqual({
      ok: true,
      status: 'on_hold',
      actualStart: 100,
      actualEnd: null,
    });
    expect(workOrderTransition('on_hold', { actualStart: 100, actualEnd: null }, 'start', 300)).toMatchObject(
      {
        status: 'in_progress',
        actualStart: 100,
      },
    );
  });

  it('complete from any unfinished status sets the end (and a start when never started)', () => {
    expect(workOrderTransition('open', none, 'complete', 500)).toEqual({
      ok: true,
      status: 'completed',
      actualStart: 500,
      actualEnd: 500,
    });
    expect(
      workOrderTransition('on_hold', { actualStart: 10, actualEnd: null }, 'complete', 50),
    ).toMatchObject({
      actualStart: 10,
      actualEnd: 50,
    });
  });

  it('cancel ends without a start; finished orders take no action; hold needs in progress', () => {
    expect(workOrderTransition('open', none, 'cancel', 9)).toEqual({
      ok: true,
      status: 'cancelled',
      actualStart: null,
      actualEnd: 9,
    });
    for (const status of ['completed', 'cancelled'] as const)
      for (const action of ['start', 'hold', 'complete', 'cancel'] as const)
        expect(workOrderTransition(status, none, action, 1)).toEqual({ ok: false, reason: 'not_allowed' });
    expect(workOrderTransition('open', none, 'hold', 1).ok).toBe(false);
    expect(workOrderActions('open')).toEqual(['start', 'complete', 'cancel']);
    expect(workOrderActions('in_progress')).toEqual(['hold', 'complete', 'cancel']);
    expect(workOrderActions('completed')).toEqual([]);
  });
});

describe('overdue, downtime, cost', () => {
  it('overdue once the scheduled end passed, until completed or cancelled', () => {
    expect(isWorkOrderOverdue({ status: 'open', scheduledEnd: 99 }, 100)).toBe(true);
    expect(isWorkOrderOverdue({ status: 'on_hold', scheduledEnd: 100 }, 100)).toBe(false);
    expect(isWorkOrderOverdue({ status: 'open', scheduledEnd: null }, 100)).toBe(false);
    expect(isWorkOrderOverdue({ status: 'completed', scheduledEnd: 1 }, 100)).toBe(false);
    expect(isWorkOrderOverdue({ status: 'cancelled', scheduledEnd: 1 }, 100)).toBe(false);
  });

  it('downtime runs from the first issue reported, else the actual start, to completion', () => {
    expect(downtimeStart([300, 200, 400], 250)).toBe(200);
    expect(downtimeStart([], 250)).toBe(250);
    expect(downtimeStart([], null)).toBeNull();
    expect(downtimeSeconds(200, 'completed', 1000, 5000)).toBe(800);
    expect(downtimeSeconds(200, 'in_progress', null, 5000)).toBe(4800);
    expect(downtimeSeconds(200, 'cancelled', 1000, 5000)).toBeNull();
    expect(downtimeSeconds(null, 'open', null, 5000)).toBeNull();
    expect(downtimeSeconds(6000, 'open', null, 5000)).toBe(0);
  });

  it('the total is Σ quantity × unit cost in thousandths, each rounded as service lines', () => {
    expect(linesTotalThousandths([])).toBe(0);
    expect(
      linesTotalThousandths([
        { qty: 2000, cost: 45_500 },
        { qty: 1500, cost: 60_000 },
      ]),
    ).toBe(181_000);
    // 0.333 × 0.005 = 0.001665 → 0.002
    expect(linesTotalThousandths([{ qty: 333, cost: 5 }])).toBe(2);
  });
});
