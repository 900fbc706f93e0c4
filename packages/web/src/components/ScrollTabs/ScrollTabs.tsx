import { Tabs, type TabsProps } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { hiddenEnds, scrollToShow, stepTarget } from './rules.ts';
import classes from './ScrollTabs.module.css';

function Chevron({ d }: { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}

/**
 * Every tab row of the app (tab rows show that they scroll). Mantine's Tabs, whose
 * list (one row at every width, the theme's Tabs styles in main.tsx) fades out at a side that hides tabs
 * and shows an arrow there that scrolls on; the active tab is scrolled into view whenever it changes.
 * The arrows are for the pointer only: the keyboard moves along the tabs with the arrow keys.
 */
export function ScrollTabs({ children, classNames, className, onChange, ...props }: TabsProps) {
  const root = useRef<HTMLDivElement>(null);
  const [ends, setEnds] = useState({ start: false, end: false });

  const list = useCallback(
    () => root.current?.querySelector<HTMLElement>(':scope > [role="tablist"]') ?? null,
    [],
  );

  const measure = useCallback(() => {
    const l = list();
    if (!l) return;
    const next = hiddenEnds(l);
    setEnds((prev) => (prev.start === next.start && prev.end === next.end ? prev : next));
    root.current?.style.setProperty('--scroll-tabs-h', `${l.offsetHeight}px`);
  }, [list]);

  const showActive = useCallback(() => {
    const l = list();
    const tab = l?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    if (!l || !tab) return;
    const left = tab.getBoundingClientRect().left - l.getBoundingClientRect().left + l.scrollLeft;
    const target = scrollToShow(l, left, tab.offsetWidth);
    if (target !== Math.round(l.scrollLeft)) l.scrollTo({ left: target });
  }, [list]);

  // Measured on scroll, on resize and when tabs come, go or change their label (counts in labels).
  useEffect(() => {
    const l = list();
    if (!l) return;
    measure();
    l.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(l);
    const changes = new MutationObserver(measure);
    changes.observe(l, { childList: true, subtree: true, characterData: true });
    return () => {
      l.removeEventListener('scroll', measure);
      resize.disconnect();
      changes.disconnect();
    };
  }, [list, measure]);

  // A new active tab (chosen, or set from the address) is scrolled into view.
  useEffect(showActive, [props.value, showActive]);

  const step = (direction: -1 | 1) => {
    const l = list();
    if (l) l.scrollTo({ left: stepTarget(l, direction) });
  };

  return (
    <Tabs
      ref={root}
      {...props}
      onChange={(value) => {
        onChange?.(value);
        requestAnimationFrame(showActive);
      }}
      className={className ? `${classes.root} ${className}` : classes.root}
      classNames={{ ...(classNames as object), list: classes.list }}
      data-scroll-tabs=""
      data-more-start={ends.start || undefined}
      data-more-end={ends.end || undefined}
    >
      {children}
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className={classes.arrow}
        data-side="start"
        hidden={!ends.start}
        onClick={() => step(-1)}
      >
        <Chevron d="M15 6l-6 6 6 6" />
      </button>
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        className={classes.arrow}
        data-side="end"
        hidden={!ends.end}
        onClick={() => step(1)}
      >
        <Chevron d="M9 6l6 6-6 6" />
      </button>
    </Tabs>
  );
}
