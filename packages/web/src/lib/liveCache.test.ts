import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyUnitMessages,
  applyUnitUpdates,
  createCoalescer,
  mergeParams,
  mergeUnit,
  removeUnits,
  throttle,
} from './liveCache.ts';

const unit = (id: number, y: number, t = 100) => ({
  id,
  nm: `Unit ${id}`,
  lmsg: { t, p: {} },
  pos: { t, y, x: 27, s: 0, c: 0, z: null },
  cnm: 0,
  cneh: 0,
  prp: { color: 'red', plate: 'AB 1' } as Record<string, string>,
  prms: {} as Record<string, string>,
});

const msg = (id: number, t: number, y: number) => ({
  id,
  lmsg: { t, p: { a: 1 } },
  pos: { t, y, x: 27, s: 10, c: 5, z: null },
  cnm: 7,
  cneh: 8,
});

describe('unit messages (spec §4 "Unit events": messages set last message and position)', () => {
  it('sets last message, position and counters of the messaged units only', () => {
    const units = [unit(1, 54), unit(2, 55)];
    const next = applyUnitMessages(units, [msg(2, 200, 56)]);
    expect(next[0]).toBe(units[0]);
    expect(next[1]).toMatchObject({ lmsg: { t: 200 }, pos: { y: 56 }, cnm: 7, cneh: 8, nm: 'Unit 2' });
  });

  it('moves the actual counters by what the totals moved', () => {
    const units = [{ ...unit(1, 54), cnm: 5.5, cneh: 6, acnm: 1.25, aceh: 2 }];
    expect(applyUnitMessages(units, [msg(1, 200, 56)])[0]).toMatchObject({
      cnm: 7,
      acnm: 2.75,
      cneh: 8,
      aceh: 4,
    });
  });

  it('keeps the last position when a message has none', () => {
    const units = [unit(1, 54)];
    expect(applyUnitMessages(units, [{ ...msg(1, 200, 0), pos: null }])[0]?.pos).toEqual(units[0]?.pos);
  });

  it('ignores older messages and unknown units, keeping the same list', () => {
    const units = [unit(1, 54, 300)];
    expect(applyUnitMessages(units, [msg(1, 200, 56), msg(9, 400, 1)])).toBe(units);
    expect(applyUnitMessages(units, [])).toBe(units);
  });
});

describe('unit updates (spec §4: updates merge properties and parameters)', () => {
  it('an empty value removes a property, others are set', () => {
    expect(mergeParams({ a: '1', b: '2', c: '3' }, { a: '', b: null, d: '4' })).toEqual({ c: '3', d: '4' });
  });

  it('replaces plain fields and merges properties and parameters', () => {
    const next = mergeUnit(unit(1, 54), {
      id: 1,
      nm: 'Renamed',
      prp: { color: '', vin: 'X' },
      prms: { t: 5 },
    });
    expect(next).toMatchObject({ nm: 'Renamed', prp: { plate: 'AB 1', vin: 'X' }, prms: { t: 5 } });
    expect(next.prp).not.toHaveProperty('color');
  });

  it('replaces only the updated units and names the ones it does not hold', () => {
    const units = [unit(1, 54), unit(2, 55)];
    const { units: next, missing } = applyUnitUpdates(units, [
      { id: 2, nm: 'Two' },
      { id: 7, nm: 'New' },
    ]);
    expect(next[0]).toBe(units[0]);
    expect(next[1]?.nm).toBe('Two');
    expect(missing).toEqual([7]);
    expect(applyUnitUpdates(units, []).units).toBe(units);
    expect(applyUnitUpdates(units, [{ id: 9, nm: 'x' }]).units).toBe(units);
  });

  it('two updates of a unit in one batch both apply', () => {
    const { units } = applyUnitUpdates(
      [unit(1, 54)],
      [
        { id: 1, nm: 'A' },
        { id: 1, ins: 1 },
      ],
    );
    expect(units[0]).toMatchObject({ nm: 'A', ins: 1 });
  });

  it('removes deleted units, the same list when none was there', () => {
    const units = [unit(1, 54), unit(2, 55)];
    expect(removeUnits(units, [1]).map((u) => u.id)).toEqual([2]);
    expect(removeUnits(units, [9])).toBe(units);
  });
});

describe('coalesced refetches', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A run that stays in flight until released. */
  function harness() {
    const runs: string[] = [];
    const release: (() => void)[] = [];
    const c = createCoalescer((key) => {
      runs.push(key);
      return new Promise<void>((resolve) => release.push(resolve));
    }, 400);
    const settle = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };
    return { runs, release, c, settle };
  }

  it('runs once at the end of the window for a burst of requests', async () => {
    const { runs, c, settle } = harness();
    for (let i = 0; i < 50; i++) c.schedule('units');
    c.schedule('services');
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(399);
    await settle();
    expect(runs).toEqual([]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(runs.sort()).toEqual(['services', 'units']);
  });

  it('keeps one run in flight per key and one more after it for what came meanwhile', async () => {
    const { runs, release, c, settle } = harness();
    c.schedule('units');
    vi.advanceTimersByTime(400);
    await settle();
    expect(runs).toEqual(['units']);
    for (let i = 0; i < 20; i++) c.schedule('units');
    vi.advanceTimersByTime(5000);
    await settle();
    expect(runs).toEqual(['units']);
    release.shift()?.();
    await settle();
    vi.advanceTimersByTime(400);
    await settle();
    expect(runs).toEqual(['units', 'units']);
    release.shift()?.();
    await settle();
    vi.advanceTimersByTime(5000);
    await settle();
    expect(runs).toEqual(['units', 'units']);
  });

  it('a failed run does not block the next', async () => {
    const runs: string[] = [];
    const c = createCoalescer(async (key) => {
      runs.push(key);
      throw new Error('offline');
    }, 100);
    c.schedule('units');
    vi.advanceTimersByTime(100);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    c.schedule('units');
    vi.advanceTimersByTime(100);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(runs).toEqual(['units', 'units']);
  });

  it('cancel drops what is waiting', async () => {
    const { runs, c, settle } = harness();
    c.schedule('units');
    c.cancel();
    vi.advanceTimersByTime(1000);
    await settle();
    expect(runs).toEqual([]);
  });
});

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then once per window with the newest arguments', () => {
    const calls: number[] = [];
    const f = throttle((n: number) => calls.push(n), 150);
    f(1);
    f(2);
    f(3);
    expect(calls).toEqual([1]);
    vi.advanceTimersByTime(150);
    expect(calls).toEqual([1, 3]);
    vi.advanceTimersByTime(500);
    f(4);
    expect(calls).toEqual([1, 3, 4]);
    f(5);
    f.cancel();
    vi.advanceTimersByTime(500);
    expect(calls).toEqual([1, 3, 4]);
    f(6);
    f(7);
    f.flush();
    expect(calls).toEqual([1, 3, 4, 6, 7]);
  });
});
