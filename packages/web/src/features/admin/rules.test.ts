import { ACL_ALL, Acl, FLEET_CURRENCY_MAX, type FleetWire, fleetCreateBody } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../lib/coreResolver.ts';
import { tzCode } from '../../lib/timeZones.ts';
import {
  administeredFleets,
  filterFleetRows,
  fleetRows,
  newFleetBody,
  sortFleetRows,
  timeZoneLabel,
} from './rules.ts';

const fleet = (id: number, n: string, acl: number, extra: Partial<FleetWire> = {}): FleetWire => ({
  id,
  n,
  acl,
  tz: 0,
  cur: 'EUR',
  ms: 0,
  fm: 1,
  mdd: 4800,
  aid: 1,
  s: 1,
  ...extra,
});

describe('admin fleet list (spec §2 /admin)', () => {
  it('lists the fleets with admin or viewNotification, not the others', () => {
    const fleets = [
      fleet(1, 'Admin', Acl.admin),
      fleet(2, 'Notified', Acl.viewNotification | Acl.viewService),
      fleet(3, 'Viewer', Acl.viewService | Acl.viewInterval),
      fleet(4, 'All', ACL_ALL),
    ];
    expect(administeredFleets(fleets).map((f) => f.id)).toEqual([1, 2, 4]);
  });

  it('names the account when the accounts are known (the own one is not listed), and marks suspended fleets', () => {
    const rows = fleetRows(
      [fleet(1, 'A', Acl.admin, { aid: 7, s: 0 }), fleet(2, 'B', Acl.admin, { aid: 8 })],
      [{ id: 7, n: 'Depot' }],
      'Own',
    );
    expect(rows.map((r) => [r.account, r.active])).toEqual([
      ['Depot', false],
      ['Own', true],
    ]);
    // Without the account list (not an account admin) no account is named.
    expect(fleetRows([fleet(1, 'A', Acl.admin)], undefined, 'Own')[0]!.account).toBe('');
  });

  it('filters by name or account, ignoring case and accents', () => {
    const rows = fleetRows(
      [fleet(1, 'Nord Café', Acl.admin, { aid: 1 }), fleet(2, 'South', Acl.admin, { aid: 2 })],
      [
        { id: 1, n: 'Top' },
        { id: 2, n: 'Depot Ölbach' },
      ],
      'Own',
    );
    expect(filterFleetRows(rows, 'cafe').map((r) => r.id)).toEqual([1]);
    expect(filterFleetRows(rows, 'OLBACH').map((r) => r.id)).toEqual([2]);
    expect(filterFleetRows(rows, '  ').map((r) => r.id)).toEqual([1, 2]);
    expect(filterFleetRows(rows, 'nothing')).toEqual([]);
  });

  it('sorts by name in natural order, then account, then id', () => {
    const rows = fleetRows(
      [
        fleet(1, 'Fleet 10', Acl.admin),
        fleet(2, 'fleet 2', Acl.admin, { aid: 2 }),
        fleet(3, 'Fleet 2', Acl.admin, { aid: 1 }),
        fleet(4, 'Alpha', Acl.admin),
      ],
      [
        { id: 1, n: 'A' },
        { id: 2, n: 'B' },
      ],
      'Own',
    );
    expect(sortFleetRows(rows).map((r) => r.id)).toEqual([4, 3, 2, 1]);
  });

  it('labels a zone of the list by its cities, an unknown code by its offset', () => {
    expect(timeZoneLabel(tzCode(60, 'north'), 'summer time')).toBe(
      'UTC+01:00 Berlin, Paris, Madrid, Rome, Warsaw, Prague, Belgrade (summer time)',
    );
    expect(timeZoneLabel(tzCode(180, 'none'), 'x')).toMatch(/^UTC\+03:00 Moscow/);
    expect(timeZoneLabel(tzCode(-50, 'none'), 'x')).toBe('UTC\u221200:50');
  });
});

describe('new fleet form (PRODUCT.md "Administration")', () => {
  it('is checked with fleetCreateBody: a name of at most 128 characters, a short currency', () => {
    const form = { n: 'North', aid: null, tz: 180, cur: '', ms: 0 as const, fm: 1 as const };
    const problems = (f: typeof form) =>
      schemaProblems(fleetCreateBody, newFleetBody(f), (path) => path[0] ?? null).fields;
    expect(problems({ ...form, n: '  ' })).toEqual({ n: { problem: 'required', limit: 1 } });
    expect(problems({ ...form, n: 'x'.repeat(129) })).toEqual({ n: { problem: 'tooLong', limit: 128 } });
    expect(problems({ ...form, n: 'x'.repeat(128) })).toEqual({});
    expect(problems({ ...form, cur: 'x'.repeat(FLEET_CURRENCY_MAX + 1) })).toHaveProperty(
      'cur.problem',
      'tooLong',
    );
  });

  it('sends the trimmed settings, and the account only when one is picked', () => {
    const form = { n: ' North ', aid: null, tz: 180, cur: ' SEK ', ms: 1 as const, fm: 2 as const };
    expect(newFleetBody(form)).toEqual({ n: 'North', tz: 180, cur: 'SEK', ms: 1, fm: 2 });
    expect(newFleetBody({ ...form, aid: '12' })).toEqual({
      n: 'North',
      aid: 12,
      tz: 180,
      cur: 'SEK',
      ms: 1,
      fm: 2,
    });
  });
});
