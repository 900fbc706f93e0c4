import { describe, expect, it } from 'vitest';
import { ServiceFlag as F, NotificationKind } from './constants.js';
import {
  dueReminder,
  engineChanges,
  newlyOverdueKinds,
  notificationKindOf,
  reminderDay,
  serviceWriteChanges,
} from './domain-events.js';
import { TZ_DST_EUROPE } from './timezone.js';

const DAY = 86400;
/** 2024-06-10 00:00 UTC. */
const JUNE_10 = Date.UTC(2024, 5, 10) / 1000;

describe('serviceWriteChanges (a person writes a service)', () => {
  it('a creation is one service.created whatever its status', () => {
    for (const f of [F.upcoming | F.manually, F.inProgress, F.closed])
      expect(serviceWriteChanges(null, f)).toEqual([{ type: 'service.created' }]);
  });

  it('each status change is one event of its kind', () => {
    expect(serviceWriteChanges(F.upcoming, F.inProgress)).toEqual([{ type: 'service.inProgress' }]);
    expect(serviceWriteChanges(F.upcoming | F.overdue | F.overdueByDays, F.closed)).toEqual([
      { type: 'service.closed' },
    ]);
    expect(serviceWriteChanges(F.inProgress, F.rejected)).toEqual([{ type: 'service.rejected' }]);
    expect(serviceWriteChanges(F.inProgress, F.upcoming | F.manually)).toEqual([
      { type: 'service.due', reason: 'reopened' },
    ]);
  });

  it('an edit that keeps the status makes none', () => {
    expect(serviceWriteChanges(F.upcoming | F.manually, F.upcoming | F.manually)).toEqual([]);
    expect(serviceWriteChanges(F.inProgress, F.inProgress)).toEqual([]);
    expect(serviceWriteChanges(F.closed, F.closed)).toEqual([]);
  });
});

describe('engineChanges (the status engine writes)', () => {
  it('a creation is service.due, plus service.overdue when it starts overdue', () => {
    expect(engineChanges(null, F.upcoming)).toEqual([{ type: 'service.due', reason: 'notice' }]);
    expect(engineChanges(null, F.upcoming | F.overdue | F.overdueByMileage)).toEqual([
      { type: 'service.due', reason: 'notice' },
      { type: 'service.overdue', kinds: F.overdueByMileage },
    ]);
  });

  it('a flag change is one service.overdue with the newly set kinds only', () => {
    const byKm = F.upcoming | F.overdue | F.overdueByMileage;
    expect(engineChanges(F.upcoming, byKm)).toEqual([{ type: 'service.overdue', kinds: 256 }]);
    expect(engineChanges(byKm, byKm | F.overdueByDays)).toEqual([{ type: 'service.overdue', kinds: 1024 }]);
    expect(
      engineChanges(F.upcoming, F.upcoming | F.overdue | F.overdueByEngineHours | F.overdueByDays),
    ).toEqual([{ type: 'service.overdue', kinds: 512 | 1024 }]);
  });

  it('clearing or keeping overdue flags makes none', () => {
    const byKm = F.upcoming | F.overdue | F.overdueByMileage;
    expect(engineChanges(byKm, F.upcoming)).toEqual([]);
    expect(engineChanges(byKm | F.overdueByDays, byKm)).toEqual([]);
    expect(engineChanges(byKm, byKm)).toEqual([]);
  });

  it('overdue bits on a service that is not Due are no overdue', () => {
    expect(newlyOverdueKinds(F.upcoming, F.inProgress | F.overdueByMileage)).toBe(0);
  });
});

describe('reminder day ("notify N days before" of a Due service)', () => {
  const planned = JUNE_10 + 5 * DAY; // June 15
  const due = { f: F.upcoming | F.manually, plannedDate: planned, notifyDays: 3, remindedDay: null };

  it('is the start of the local day N calendar days before the planned date', () => {
    expect(reminderDay(0, planned, 3)).toBe(JUNE_10 + 2 * DAY);
    expect(reminderDay(0, planned, 0)).toBe(planned);
    // UTC+2 in summer (Europe): local midnight is 22:00 UTC the day before.
    const tz = 60 | TZ_DST_EUROPE;
    const localPlanned = planned - 2 * 3600;
    expect(reminderDay(tz, localPlanned, 3)).toBe(JUNE_10 + 2 * DAY - 2 * 3600);
  });

  it('is reached on that day, not the day before, and announced once', () => {
    expect(dueReminder(due, 0, JUNE_10 + 2 * DAY - 1)).toBeNull();
    expect(dueReminder(due, 0, JUNE_10 + 2 * DAY)).toBe(JUNE_10 + 2 * DAY);
    expect(dueReminder(due, 0, JUNE_10 + 4 * DAY + 3600)).toBe(JUNE_10 + 2 * DAY);
    expect(dueReminder({ ...due, remindedDay: JUNE_10 + 2 * DAY }, 0, JUNE_10 + 3 * DAY)).toBeNull();
  });

  it('a moved planned date gives a new reminder day', () => {
    const moved = { ...due, plannedDate: planned + 2 * DAY, remindedDay: JUNE_10 + 2 * DAY };
    expect(dueReminder(moved, 0, JUNE_10 + 3 * DAY)).toBeNull();
    expect(dueReminder(moved, 0, JUNE_10 + 4 * DAY)).toBe(JUNE_10 + 4 * DAY);
  });

  it('only Due services with a planned date and notify days have one', () => {
    const at = JUNE_10 + 4 * DAY;
    expect(dueReminder({ ...due, f: F.upcoming | F.overdue | F.overdueByDays }, 0, at)).not.toBeNull();
    expect(dueReminder({ ...due, f: F.inProgress }, 0, at)).toBeNull();
    expect(dueReminder({ ...due, f: F.closed }, 0, at)).toBeNull();
    expect(dueReminder({ ...due, notifyDays: null }, 0, at)).toBeNull();
    expect(dueReminder({ ...due, plannedDate: null }, 0, at)).toBeNull();
  });
});

describe('notificationKindOf', () => {
  it('maps service events to the notification kinds of DESIGN §6', () => {
    expect(notificationKindOf({ type: 'service.created', f: F.upcoming | F.manually })).toBe(
      NotificationKind.upcoming,
    );
    expect(notificationKindOf({ type: 'service.created', f: F.closed })).toBe(NotificationKind.closed);
    expect(notificationKindOf({ type: 'service.due' })).toBe(1);
    expect(notificationKindOf({ type: 'service.reminder' })).toBe(1);
    expect(notificationKindOf({ type: 'service.overdue' })).toBe(4);
    expect(notificationKindOf({ type: 'service.inProgress' })).toBe(2);
    expect(notificationKindOf({ type: 'service.closed' })).toBe(8);
    expect(notificationKindOf({ type: 'service.rejected' })).toBe(16);
    expect(notificationKindOf({ type: 'unit.counters' })).toBeNull();
    expect(notificationKindOf({ type: 'fleet.suspended' })).toBeNull();
  });
});
