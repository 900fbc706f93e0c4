import { describe, expect, it } from 'vitest';
import { dispositionFileName } from '../../lib/transfer.ts';
import {
  decodeObjects,
  decodeReportState,
  encodeReportState,
  progressRatio,
  type ReportState,
  reportExportUrl,
  reportQueryOf,
} from './rules.ts';

const TYPES = ['first', 'second', 'third'] as const;
const TODAY = '2026-03-31';

describe('report URL state', () => {
  it('reads the defaults from an empty query: first type, a month, every object, no grouping', () => {
    const state = decodeReportState(new URLSearchParams(), TODAY, TYPES);
    expect(state).toEqual({
      type: 'first',
      period: { kind: 'month', from: '2026-03-02', to: TODAY },
      kind: null,
      objects: [],
      group: 'none',
    });
  });

  it('offers the contract types by default', () => {
    const state = decodeReportState(new URLSearchParams('type=fuel'), TODAY);
    expect(state.type).toBe('fuel');
    expect(decodeReportState(new URLSearchParams('type=first'), TODAY).type).toBe('service-costs-by-object');
  });

  it('reads every part of a query', () => {
    const params = new URLSearchParams(
      'type=third&period=custom&from=2026-01-01&to=2026-02-15&ot=d&obj=7,3&group=week',
    );
    expect(decodeReportState(params, TODAY, TYPES)).toEqual({
      type: 'third',
      period: { kind: 'custom', from: '2026-01-01', to: '2026-02-15' },
      kind: 'd',
      objects: [7, 3],
      group: 'week',
    });
  });

  it('falls back to the defaults for unknown values', () => {
    const params = new URLSearchParams('type=nope&ot=x&group=year&period=decade&obj=a,-1,0');
    const state = decodeReportState(params, TODAY, TYPES);
    expect(state.type).toBe('first');
    expect(state.kind).toBeNull();
    expect(state.group).toBe('none');
    expect(state.period.kind).toBe('month');
    expect(state.objects).toEqual([]);
  });

  it('keeps object ids once, positive, within the integer maximum', () => {
    expect(decodeObjects('5, 5,12,4294967296,4294967295,1.5,x')).toEqual([5, 12, 4294967295]);
    expect(decodeObjects(null)).toEqual([]);
  });

  it('writes a report and reads the same one back, leaving other parameters alone', () => {
    const state: ReportState<string> = {
      type: 'second',
      period: { kind: 'custom', from: '2026-02-01', to: '2026-02-28' },
      kind: 't',
      objects: [4, 9],
      group: 'day',
    };
    const params = encodeReportState(new URLSearchParams('sort=total.desc&q=abc'), state, 'first');
    expect(params.get('sort')).toBe('total.desc');
    expect(params.get('q')).toBe('abc');
    expect(params.get('type')).toBe('second');
    expect(params.get('ot')).toBe('t');
    expect(params.get('obj')).toBe('4,9');
    expect(params.get('group')).toBe('day');
    expect(decodeReportState(params, TODAY, TYPES)).toEqual(state);
  });

  it('leaves the defaults out of the query', () => {
    const state = decodeReportState(new URLSearchParams(), TODAY, TYPES);
    expect(
      encodeReportState(new URLSearchParams('type=third&ot=d&obj=1&group=day'), state, 'first').toString(),
    ).toBe('');
  });

  it('keeps objects only with their kind', () => {
    expect(decodeReportState(new URLSearchParams('obj=1,2'), TODAY, TYPES).objects).toEqual([]);
    const state = decodeReportState(new URLSearchParams('ot=u&obj=1,2'), TODAY, TYPES);
    expect(
      encodeReportState(new URLSearchParams('ot=u&obj=1,2'), { ...state, kind: null }, 'first').toString(),
    ).toBe('');
  });
});

describe('report request', () => {
  const base: ReportState<string> = {
    type: 'services-performed',
    period: { kind: 'custom', from: '2026-01-01', to: '2026-01-31' },
    kind: null,
    objects: [],
    group: 'none',
  };

  it('asks the period alone by default', () => {
    expect(reportQueryOf(base)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  });

  it('adds the grouping, the object kind and the ids', () => {
    const state = { ...base, group: 'week' as const, kind: 'd' as const, objects: [5, 2] };
    expect(reportQueryOf(state)).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
      group: 'week',
      ot: 'd',
      ids: '5,2',
    });
    expect(reportQueryOf({ ...base, kind: 'u' }).ids).toBeUndefined();
  });

  it('names the export with its format', () => {
    expect(reportExportUrl(3, { ...base, group: 'month' }, 'xlsx')).toBe(
      '/api/fleets/3/reports/services-performed/export?from=2026-01-01&to=2026-01-31&group=month&format=xlsx',
    );
  });
});

describe('download progress', () => {
  it('is the share received, capped at 1, unknown without a size', () => {
    expect(progressRatio({ loaded: 25, total: 100 })).toBe(0.25);
    expect(progressRatio({ loaded: 150, total: 100 })).toBe(1);
    expect(progressRatio({ loaded: 25, total: null })).toBeNull();
    expect(progressRatio({ loaded: 0, total: 0 })).toBeNull();
  });
});

describe('dispositionFileName', () => {
  it('prefers the UTF-8 name and falls back to the quoted one', () => {
    expect(
      dispositionFileName(`attachment; filename="Kosten _.xlsx"; filename*=UTF-8''Kosten%20%C3%BC.xlsx`),
    ).toBe('Kosten ü.xlsx');
    expect(dispositionFileName('attachment; filename="report 2026.csv"')).toBe('report 2026.csv');
    expect(dispositionFileName('attachment; filename=plain.pdf')).toBe('plain.pdf');
  });

  it('drops path parts and answers null without a name', () => {
    expect(dispositionFileName('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(dispositionFileName('attachment')).toBeNull();
    expect(dispositionFileName(null)).toBeNull();
    expect(dispositionFileName(`attachment; filename*=UTF-8''%E0%A4%A; filename="ok.csv"`)).toBe('ok.csv');
  });
});
