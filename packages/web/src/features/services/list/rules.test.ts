import { Acl, ServiceFlag, type ServiceWire } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { canWith } from '../../../lib/permissions.ts';
import { serviceWire } from '../testing.ts';
import {
  archiveActions,
  bulkActions,
  dateOf,
  decodeFilters,
  decodePeriod,
  defaultPeriod,
  encodeFilters,
  filterServices,
  inTab,
  liveSelection,
  parseTab,
  periodError,
  plannedSortKey,
  quickActions,
  remaining,
} from './rules.ts';

const service = (patch: Partial<ServiceWire> = {}) => serviceWire(patch);

const OVERDUE_DAYS = ServiceFlag.upcoming | ServiceFlag.overdue | ServiceFlag.overdueByDays;
const MANAGER = Acl.viewInterval | Acl.viewService | Acl.manageService;
/** The permissions of a regular fleet user with this acl (core can()). */
const may = (acl: number) => canWith({ su: false, admin: false }, acl);

describe('tabs and filters', () => {
  it('parses the tab, Upcoming by default', () => {
    expect(parseTab('archive')).toBe('archive');
    expect(parseTab('inProgress')).toBe('inProgress');
    expect(parseTab(null)).toBe('upcoming');
    expect(parseTab('bogus')).toBe('upcoming');
  });

  it('puts Due and overdue in Upcoming, closed and rejected in the archive', () => {
    expect(inTab(OVERDUE_DAYS, 'upcoming')).toBe(true);
    expect(inTab(ServiceFlag.inProgress, 'upcoming')).toBe(false);
    expect(inTab(ServiceFlag.inProgress, 'inProgress')).toBe(true);
    expect(inTab(ServiceFlag.closed, 'archive')).toBe(true);
    expect(inTab(ServiceFlag.rejected, 'archive')).toBe(true);
    expect(inTab(ServiceFlag.upcoming, 'archive')).toBe(false);
  });

  it('round-trips filters through the URL and drops unknown values', () => {
    const params = encodeFilters(new URLSearchParams('tab=upcoming&q=oil'), {
      object: 'u',
      unitTypes: [1, 3],
      status: 'overdue',
      tag: 'north',
    });
    expect(params.get('q')).toBe('oil');
    expect(params.get('tag')).toBe('north');
    expect(decodeFilters(params, 'upcoming')).toEqual({
      object: 'u',
      unitTypes: [1, 3],
      status: 'overdue',
      tag: 'north',
    });
    // 'overdue' is no status of the archive tab.
    expect(decodeFilters(params, 'archive').status).toBeNull();
    expect(decodeFilters(new URLSearchParams('obj=x&ut=1,a,1,2,3,4,5,6'), 'upcoming')).toEqual({
      object: null,
      unitTypes: [1, 2, 3, 4, 5],
      status: null,
      tag: null,
    });
    const cleared = encodeFilters(params, { object: null, unitTypes: [], status: null, tag: null });
    expect([...cleared.keys()].sort()).toEqual(['q', 'tab']);
  });

  it('filters by tab, object kind, unit type and tag (units only) and status', () => {
    const rows = [
      service({ id: 1, uid: 10 }),
      service({ id: 2, uid: 11, f: OVERDUE_DAYS }),
      service({ id: 3, t: 'd', uid: 5 }),
      service({ id: 4, f: ServiceFlag.inProgress }),
    ];
    const types = new Map([
      [10, 1],
      [11, 2],
    ]);
    const ids = (f: Parameters<typeof filterServices>[2], tab: Parameters<typeof filterServices>[1]) =>
      filterServices(
        rows,
        tab,
        f,
        (id) => types.get(id),
        (id) => (id === 11 ? ['North', 'rental'] : []),
      ).map((s) => s.id);
    const none = { object: null, unitTypes: [], status: null, tag: null };
    expect(ids(none, 'upcoming')).toEqual([1, 2, 3]);
    expect(ids(none, 'inProgress')).toEqual([4]);
    expect(ids({ ...none, object: 'd' }, 'upcoming')).toEqual([3]);
    expect(ids({ ...none, unitTypes: [2] }, 'upcoming')).toEqual([2]);
    expect(ids({ ...none, status: 'overdue' }, 'upcoming')).toEqual([2]);
    expect(ids({ ...none, status: 'due' }, 'upcoming')).toEqual([1, 3]);
    // A tag matches without case; drivers and trailers carry none (docs/product.md "The vehicle profile").
    expect(ids({ ...none, tag: 'north' }, 'upcoming')).toEqual([2]);
    expect(ids({ ...none, tag: 'south' }, 'upcoming')).toEqual([]);
  });
});

describe('dates, sort keys and remaining values', () => {
  it('shows the planned date while Due, the start in progress, the end in the archive', () => {
    const s = service({ limit_date: 100, start_date: 50, end_date: 200 });
    expect(dateOf(s, 'upcoming')).toBe(100);
    expect(dateOf(s, 'inProgress')).toBe(50);
    expect(dateOf(service({ limit_date: 100 }), 'inProgress')).toBe(100);
    expect(dateOf(s, 'archive')).toBe(200);
  });

  it('sorts the planned column by planned date, else the forecast, else last', () => {
    expect(plannedSortKey(service({ limit_date: 100, forecast_date: 300 }))).toBe(100);
    expect(plannedSortKey(service({ forecast_date: 300 }))).toBe(300);
    expect(plannedSortKey(service())).toBeNull();
  });

  it('computes remaining = limit − current, null when unknown (spec §9)', () => {
    expect(
      remaining(
        service({
          limit_mileage: 15000,
          current_mileage: 14200.5,
          limit_engine_hours: 500,
          current_engine_hours: 510.25,
        }),
      ),
    ).toEqual({ mileage: 799.5, engineHours: -10.25 });
    expect(remaining(service({ limit_mileage: 100 }))).toEqual({ mileage: null, engineHours: null });
  });
});

describe('actions by status and permission', () => {
  it('offers In progress, Close, Reject for Due and Close, Reject in progress, with manageService', () => {
    expect(quickActions(ServiceFlag.upcoming, may(MANAGER))).toEqual(['inProgress', 'close', 'reject']);
    expect(quickActions(OVERDUE_DAYS, may(MANAGER))).toEqual(['inProgress', 'close', 'reject']);
    expect(quickActions(ServiceFlag.inProgress, may(MANAGER))).toEqual(['close', 'reject']);
    expect(quickActions(ServiceFlag.closed, may(MANAGER))).toEqual([]);
    expect(quickActions(ServiceFlag.upcoming, may(Acl.viewService | Acl.viewInterval))).toEqual([]);
  });

  it('gives bulk actions per tab; delete only in the archive with archiveDelete', () => {
    expect(bulkActions('upcoming', may(MANAGER))).toEqual(['inProgress', 'close', 'reject']);
    expect(bulkActions('inProgress', may(MANAGER))).toEqual(['close', 'reject']);
    expect(bulkActions('archive', may(MANAGER))).toEqual([]);
    expect(bulkActions('archive', may(MANAGER | Acl.archiveEdit | Acl.archiveDelete))).toEqual(['delete']);
    expect(bulkActions('upcoming', may(Acl.viewService))).toEqual([]);
    expect(archiveActions(may(MANAGER | Acl.archiveEdit))).toEqual({ edit: true, delete: false });
  });

  it('keeps only selected ids still in the table', () => {
    expect(liveSelection(['1', '3', '9'], [service({ id: 1 }), service({ id: 3 })])).toEqual([1, 3]);
  });
});

describe('archive period', () => {
  it('defaults to the current month', () => {
    expect(defaultPeriod('2026-02-14')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(defaultPeriod('2024-02-01')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(defaultPeriod('2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('reads the period from the URL, the current month when malformed', () => {
    expect(decodePeriod(new URLSearchParams('from=2026-01-05&to=2026-03-01'), '2026-11-21')).toEqual({
      from: '2026-01-05',
      to: '2026-03-01',
    });
    expect(decodePeriod(new URLSearchParams('from=2026-02-30'), '2026-11-21')).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
    });
  });

  it('checks order and the 366-day limit', () => {
    expect(periodError('2026-01-01', '2026-01-31')).toBeNull();
    expect(periodError('2026-02-01', '2026-01-31')).toBe('order');
    expect(periodError('2025-01-01', '2026-01-03')).toBe('tooLong');
    expect(periodError('2025-01-01', '2026-01-02')).toBeNull();
    expect(periodError('2024-01-01', '2024-12-31')).toBeNull();
    expect(periodError('2026-13-01', '2026-12-31')).toBe('invalid');
  });
});
