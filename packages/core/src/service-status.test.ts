import { describe, expect, it } from 'vitest';
import { ServiceFlag } from './constants.js';
import {
  canTransition,
  flagsFor,
  isOverdue,
  overdueKinds,
  statusBadge,
  statusFromFlag,
  statusOf,
} from './service-status.js';

const OVERDUE_DAYS = ServiceFlag.upcoming | ServiceFlag.overdue | ServiceFlag.overdueByDays;

describe('status flags (spec §4)', () => {
  it('reads the status: finished flags win, then in progress, else Due', () => {
    expect(statusOf(ServiceFlag.upcoming)).toBe('due');
    expect(statusOf(ServiceFlag.upcoming | ServiceFlag.manually)).toBe('due');
    expect(statusOf(OVERDUE_DAYS)).toBe('due');
    expect(statusOf(ServiceFlag.inProgress)).toBe('inProgress');
    expect(statusOf(ServiceFlag.closed)).toBe('closed');
    expect(statusOf(ServiceFlag.rejected | ServiceFlag.upcoming)).toBe('rejected');
  });

  it('tells overdue kinds from the 256/512/1024 bits of a Due service only', () => {
    expect(isOverdue(OVERDUE_DAYS)).toBe(true);
    expect(overdueKinds(OVERDUE_DAYS)).toEqual(['days']);
    const all =
      ServiceFlag.upcoming |
      ServiceFlag.overdue |
      ServiceFlag.overdueByMileage |
      ServiceFlag.overdueByEngineHours |
      ServiceFlag.overdueByDays;
    expect(overdueKinds(all)).toEqual(['mileage', 'engineHours', 'days']);
    expect(overdueKinds(ServiceFlag.upcoming)).toEqual([]);
    // Overdue bits left on a closed service do not make it overdue.
    expect(isOverdue(ServiceFlag.closed | ServiceFlag.overdue)).toBe(false);
    expect(statusBadge(OVERDUE_DAYS)).toBe('overdue');
    expect(statusBadge(ServiceFlag.upcoming)).toBe('due');
  });
});

describe('transitions (PRODUCT.md "Services")', () => {
  it('lets Due and In progress move, and freezes the archive', () => {
    expect(canTransition('due', 'inProgress')).toBe(true);
    expect(canTransition('due', 'rejected')).toBe(true);
    expect(canTransition('inProgress', 'due')).toBe(true);
    expect(canTransition('inProgress', 'inProgress')).toBe(true);
    expect(canTransition('closed', 'closed')).toBe(false);
    expect(canTransition('closed', 'due')).toBe(false);
    expect(canTransition('rejected', 'inProgress')).toBe(false);
  });

  it("drops the overdue bits on leaving Due and marks a person's return to Due as manual", () => {
    expect(flagsFor(OVERDUE_DAYS, 'inProgress')).toBe(ServiceFlag.inProgress);
    expect(flagsFor(OVERDUE_DAYS, 'due')).toBe(OVERDUE_DAYS);
    expect(flagsFor(ServiceFlag.inProgress, 'due')).toBe(ServiceFlag.upcoming | ServiceFlag.manually);
  });

  it('names the status of an exact request flag only', () => {
    expect(statusFromFlag(ServiceFlag.closed)).toBe('closed');
    expect(statusFromFlag(ServiceFlag.closed | ServiceFlag.rejected)).toBeUndefined();
  });
});
