import { describe, expect, it } from 'vitest';
import {
  checkResults,
  DVIR_ITEMS,
  defectsOf,
  dvirItems,
  type InspectionItem,
  inspectionState,
  needsAcknowledgement,
  priorityOfSeverity,
  retentionCutoff,
  worstSeverity,
} from './inspections.js';

const utc = (iso: string) => Date.parse(iso) / 1000;

describe('inspection rules', () => {
  it('the built-in DVIR holds the eleven items of 49 CFR 396.11 in order, each pass/fail with a locale key', () => {
    expect(DVIR_ITEMS).toHaveLength(11);
    const items = dvirItems();
    expect(items.every((i) => i.k === 'pf' && i.req && i.key?.startsWith('inspections.dvir.'))).toBe(true);
    expect(items[0]!.l).toBe('Service brakes including trailer brake connections');
    expect(items[10]!.l).toBe('Emergency equipment');
  });

  it('severity gives the issue priority: minor → medium, major → high, dangerous → critical', () => {
    expect(priorityOfSeverity('minor')).toBe('medium');
    expect(priorityOfSeverity('major')).toBe('high');
    expect(priorityOfSeverity('dangerous')).toBe('critical');
    expect(worstSeverity(['minor', 'dangerous', 'major'])).toBe('dangerous');
    expect(worstSeverity([])).toBeNull();
  });

  const items: InspectionItem[] = [
    { k: 'pf', l: 'Brakes', key: null, sev: 'dangerous', req: true },
    { k: 'num', l: 'Pressure', key: null, sev: null, req: true },
    { k: 'text', l: 'Remarks', key: null, sev: null, req: false },
    { k: 'photo', l: 'Load', key: null, sev: null, req: false },
  ];

  it('checks results: pass/fail always answered, required answers, kinds, twice, unknown items', () => {
    expect(
      checkResults(items, [
        { i: 0, ok: true },
        { i: 1, v: 8.5 },
      ]),
    ).toEqual([]);
    expect(checkResults(items, [{ i: 1, v: 8.5 }])).toEqual([
      { row: null, item: 0, reason: 'Pass or fail is required' },
    ]);
    expect(checkResults(items, [{ i: 0, ok: true }]).map((p) => p.reason)).toEqual(['An answer is required']);
    expect(
      checkResults(items, [
        { i: 0, ok: true },
        { i: 1, v: 1 },
        { i: 9, ok: true },
      ])[0]!.reason,
    ).toBe('No such item in the form');
    expect(
      checkResults(items, [
        { i: 0, ok: true },
        { i: 0, ok: false },
        { i: 1, v: 1 },
      ])[0]!.reason,
    ).toBe('The item is answered twice');
    expect(
      checkResults(items, [
        { i: 0, ok: true },
        { i: 1, v: 1, ok: true },
      ])[0]!.reason,
    ).toBe('Only pass/fail items pass or fail');
    expect(
      checkResults(items, [
        { i: 0, ok: true, sev: 'minor' },
        { i: 1, v: 1 },
      ])[0]!.reason,
    ).toBe('Only a failed item carries a severity');
    expect(
      checkResults(items, [
        { i: 0, ok: true, img: true },
        { i: 1, v: 1 },
      ])[0]!.reason,
    ).toMatch(/image/);
    // A photo of a failed item is fine.
    expect(
      checkResults(items, [
        { i: 0, ok: false, img: true },
        { i: 1, v: 1 },
        { i: 3, img: true },
      ]),
    ).toEqual([]);
  });

  it('each failed pass/fail item is a defect, with the submitter’s severity or the item’s', () => {
    expect(defectsOf(items, [{ i: 0, ok: true }])).toEqual([]);
    expect(defectsOf(items, [{ i: 0, ok: false }])).toEqual([{ i: 0, severity: 'dangerous' }]);
    expect(defectsOf(items, [{ i: 0, ok: false, sev: 'minor' }])).toEqual([{ i: 0, severity: 'minor' }]);
  });

  it('state and acknowledgement', () => {
    expect(inspectionState([])).toBe('ok');
    expect(inspectionState([{ cert: 'repaired' }, { cert: null }])).toBe('defects');
    expect(inspectionState([{ cert: 'repaired' }, { cert: 'unnecessary' }])).toBe('certified');
    expect(needsAcknowledgement({ nd: 1, ak: null })).toBe(true);
    expect(needsAcknowledgement({ nd: 1, ak: { at: 1 } })).toBe(false);
    expect(needsAcknowledgement({ nd: 0, ak: null })).toBe(false);
    expect(needsAcknowledgement(undefined)).toBe(false);
  });

  it('retention counts calendar months, never fewer than three', () => {
    expect(retentionCutoff(utc('2026-05-31T10:00:00Z'), 3)).toBe(utc('2026-02-28T10:00:00Z'));
    expect(retentionCutoff(utc('2026-05-15T00:00:00Z'), 12)).toBe(utc('2025-05-15T00:00:00Z'));
    expect(retentionCutoff(utc('2026-05-15T00:00:00Z'), 1)).toBe(utc('2026-02-15T00:00:00Z'));
    expect(retentionCutoff(utc('2026-01-10T00:00:00Z'), 3)).toBe(utc('2025-10-10T00:00:00Z'));
  });
});
