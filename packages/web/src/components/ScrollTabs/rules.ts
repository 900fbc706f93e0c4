/**
 * A tab row wider than the screen scrolls sideways and shows that it does. Pure
 * rules over the measured list: which ends still hide tabs, and where to scroll so that the active tab is
 * wholly in view beside the faded edges.
 */

/** Width of the faded edge (and of its arrow) at a side that hides tabs, in CSS pixels. */
export const TABS_FADE = 32;

/** Share of the visible width one arrow press scrolls. */
export const TABS_STEP = 0.8;

export interface ScrollMetrics {
  scrollLeft: number;
  clientWidth: number;
  scrollWidth: number;
}

/** Whether tabs are hidden before the start and after the end of the visible part (one pixel of slack). */
export function hiddenEnds(m: ScrollMetrics): { start: boolean; end: boolean } {
  const overflow = m.scrollWidth - m.clientWidth > 1;
  return {
    start: overflow && m.scrollLeft > 1,
    end: overflow && m.scrollLeft + m.clientWidth < m.scrollWidth - 1,
  };
}

/**
 * The scroll position that shows a tab (its left offset and width within the list) wholly, clear of the
 * fade at either side; the current position when it already is, else the nearest one that does.
 */
export function scrollToShow(m: ScrollMetrics, tabLeft: number, tabWidth: number, fade = TABS_FADE): number {
  const max = Math.max(0, m.scrollWidth - m.clientWidth);
  const lo = tabLeft - fade;
  const hi = tabLeft + tabWidth + fade - m.clientWidth;
  let next = m.scrollLeft;
  if (next > lo) next = lo;
  else if (next < hi) next = hi;
  return Math.min(max, Math.max(0, Math.round(next)));
}

/** Where one arrow press in a direction (-1 back, 1 on) scrolls to. */
export function stepTarget(m: ScrollMetrics, direction: -1 | 1): number {
  const max = Math.max(0, m.scrollWidth - m.clientWidth);
  const next = m.scrollLeft + direction * Math.max(1, Math.round(m.clientWidth * TABS_STEP));
  return Math.min(max, Math.max(0, next));
}
