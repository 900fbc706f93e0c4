import type { NotificationWire } from '@fleetkeep/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationKindsOf } from '../../lib/header.ts';
import {
  BUBBLE_ACTIVE_MS,
  BUBBLE_DISAPPEAR_MS,
  BUBBLE_FADE_MS,
  BUBBLE_SHOWN_MS,
  BUBBLES_MAX,
  BubbleQueue,
  firstLoadSeen,
  makesBubble,
  notificationTarget,
  unreadIds,
  withCreated,
  withDeleted,
  withRead,
} from './rules.ts';

function note(id: string, patch: Partial<NotificationWire> = {}): NotificationWire {
  return {
    id,
    nid: null,
    t: 1,
    tm: 1_700_000_000,
    stm: null,
    d: { f: 1, n: 'Oil' },
    params: { object_name: 'Truck', service_name: 'Oil' },
    to: '/service/7',
    read: false,
    sid: 7,
    ...patch,
  };
}

describe('notification list rules', () => {
  it('spec §9 timings are the named constants', () => {
    expect([BUBBLES_MAX, BUBBLE_ACTIVE_MS, BUBBLE_SHOWN_MS, BUBBLE_FADE_MS, BUBBLE_DISAPPEAR_MS]).toEqual([
      5, 100, 15000, 500, 150,
    ]);
  });

  it('notifications of the first load count as read for bubbles', () => {
    const seen = firstLoadSeen({ alerts: [note('a'), note('b', { stm: 5 })], unread: 1 });
    expect(makesBubble(note('a'), seen, false)).toBe(false);
    expect(makesBubble(note('c'), seen, false)).toBe(true);
    expect(firstLoadSeen(undefined).size).toBe(0);
  });

  it('only unread live notifications the user did not cause make bubbles', () => {
    const seen = new Set<string>();
    expect(makesBubble(note('x', { stm: 10, read: true }), seen, false)).toBe(false);
    expect(makesBubble(note('x'), seen, true)).toBe(false);
    expect(makesBubble(note('x'), seen, false)).toBe(true);
  });

  it('a created notification is added once, newest first, and counts when unread', () => {
    const start = { alerts: [note('a', { tm: 10 })], unread: 1 };
    const next = withCreated(start, note('b', { tm: 20 }));
    expect(next.alerts.map((a) => a.id)).toEqual(['b', 'a']);
    expect(next.unread).toBe(2);
    expect(withCreated(next, note('b', { tm: 20 }))).toBe(next);
    expect(withCreated(next, note('c', { tm: 5, stm: 6 })).unread).toBe(2);
  });

  it('reading counts only unread ones down; deleting removes them', () => {
    const start = { alerts: [note('a'), note('b', { stm: 3, read: true }), note('c')], unread: 2 };
    const read = withRead(start, ['a', 'b'], 99);
    expect(read.unread).toBe(1);
    expect(read.alerts[0]).toMatchObject({ stm: 99, read: true });
    expect(read.alerts[1]?.stm).toBe(3);
    expect(withRead(read, ['a'], 100)).toBe(read);
    const deleted = withDeleted(read, ['a', 'c']);
    expect(deleted.alerts.map((a) => a.id)).toEqual(['b']);
    expect(deleted.unread).toBe(0);
  });

  it('mark all read sends only the unread ones of the kind', () => {
    const list = [note('a', { t: 1 }), note('b', { t: 1, stm: 4 }), note('c', { t: 8 })];
    expect(unreadIds(list, 1)).toEqual(['a']);
    expect(unreadIds(list)).toEqual(['a', 'c']);
  });

  it('kinds and targets', () => {
    expect(notificationKindsOf(31)).toEqual([1, 2, 4, 16, 8]);
    expect(notificationKindsOf(9)).toEqual([1, 8]);
    expect(notificationTarget({ sid: 3, to: null })).toBe('/service/3');
    expect(notificationTarget({ sid: null, to: null })).toBeNull();
  });
});

describe('bubble queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes active after 100 ms, fades after 15 s for 500 ms, disappears in 150 ms, then is removed', () => {
    const q = new BubbleQueue();
    q.push(note('a'));
    expect(q.list()[0]?.phase).toBe('shown');
    vi.advanceTimersByTime(BUBBLE_ACTIVE_MS - 1);
    expect(q.list()[0]?.phase).toBe('shown');
    vi.advanceTimersByTime(1);
    expect(q.list()[0]?.phase).toBe('active');
    vi.advanceTimersByTime(BUBBLE_SHOWN_MS - 1);
    expect(q.list()[0]?.phase).toBe('active');
    vi.advanceTimersByTime(1);
    expect(q.list()[0]?.phase).toBe('fading');
    vi.advanceTimersByTime(BUBBLE_FADE_MS);
    expect(q.list()[0]?.phase).toBe('disappearing');
    vi.advanceTimersByTime(BUBBLE_DISAPPEAR_MS - 1);
    expect(q.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(q.list()).toHaveLength(0);
  });

  it('shows at most 5: a sixth hides the oldest', () => {
    const q = new BubbleQueue();
    for (const id of ['1', '2', '3', '4', '5', '6']) q.push(note(id));
    expect(q.list().map((b) => b.n.id)).toEqual(['2', '3', '4', '5', '6']);
    // The hidden one's timers are gone: nothing of it comes back.
    vi.advanceTimersByTime(BUBBLE_ACTIVE_MS);
    expect(q.list().every((b) => b.phase === 'active')).toBe(true);
  });

  it('one bubble per event id; removing and clearing stop the timers and tell the listeners', () => {
    const q = new BubbleQueue();
    const listener = vi.fn();
    q.subscribe(listener);
    q.push(note('a'));
    q.push(note('a'));
    expect(q.list()).toHaveLength(1);
    q.push(note('b'));
    q.remove('a');
    expect(q.list().map((b) => b.n.id)).toEqual(['b']);
    q.clear();
    expect(q.list()).toHaveLength(0);
    const calls = listener.mock.calls.length;
    vi.advanceTimersByTime(BUBBLE_SHOWN_MS * 2);
    expect(listener.mock.calls.length).toBe(calls);
  });
});
