import { describe, expect, it } from 'vitest';
import { hiddenEnds, scrollToShow, stepTarget, TABS_FADE } from './rules.ts';

describe('tab row that scrolls', () => {
  it('a row that fits hides nothing', () => {
    expect(hiddenEnds({ scrollLeft: 0, clientWidth: 400, scrollWidth: 400 })).toEqual({
      start: false,
      end: false,
    });
    expect(hiddenEnds({ scrollLeft: 0, clientWidth: 400, scrollWidth: 401 })).toEqual({
      start: false,
      end: false,
    });
  });

  it('a wider row tells which ends hide tabs', () => {
    expect(hiddenEnds({ scrollLeft: 0, clientWidth: 300, scrollWidth: 700 })).toEqual({
      start: false,
      end: true,
    });
    expect(hiddenEnds({ scrollLeft: 200, clientWidth: 300, scrollWidth: 700 })).toEqual({
      start: true,
      end: true,
    });
    expect(hiddenEnds({ scrollLeft: 400, clientWidth: 300, scrollWidth: 700 })).toEqual({
      start: true,
      end: false,
    });
  });

  it('the active tab is scrolled clear of the fades, and only as far as needed', () => {
    const m = { scrollLeft: 0, clientWidth: 300, scrollWidth: 900 };
    // Already wholly visible: stays.
    expect(scrollToShow(m, 100, 80)).toBe(0);
    // Cut at the right: its right edge plus the fade meets the visible right edge.
    expect(scrollToShow(m, 400, 100)).toBe(400 + 100 + TABS_FADE - 300);
    // Cut at the left.
    expect(scrollToShow({ ...m, scrollLeft: 500 }, 450, 60)).toBe(450 - TABS_FADE);
    // Never beyond the ends.
    expect(scrollToShow(m, 850, 50)).toBe(600);
    expect(scrollToShow({ ...m, scrollLeft: 300 }, 10, 60)).toBe(0);
  });

  it('an arrow scrolls most of a screen, stopping at the ends', () => {
    const m = { scrollLeft: 0, clientWidth: 300, scrollWidth: 900 };
    expect(stepTarget(m, 1)).toBe(240);
    expect(stepTarget({ ...m, scrollLeft: 500 }, 1)).toBe(600);
    expect(stepTarget({ ...m, scrollLeft: 100 }, -1)).toBe(0);
  });
});
