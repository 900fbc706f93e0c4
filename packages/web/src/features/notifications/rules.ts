import type { AlertListReply, NotificationWire } from '@fleetkeep/core';

/**
 * Pure rules of the bell and the popup bubbles (spec §4 "Notification kinds", spec §9 "Notifications"):
 * kind titles, the list as the live events change it, which notifications
 * make bubbles, and the bubble queue with its timings.
 */

// spec §9 "Notifications": at most 5 bubbles; active after 100 ms, shown 15000 ms, fade 500 ms,
// disappear 150 ms.
export const BUBBLES_MAX = 5;
export const BUBBLE_ACTIVE_MS = 100;
export const BUBBLE_SHOWN_MS = 15_000;
export const BUBBLE_FADE_MS = 500;
export const BUBBLE_DISAPPEAR_MS = 150;

/** Where a notification leads: /service/{id} (spec §2 "A notification entry links to /service/{id}"). */
export function notificationTarget(n: Pick<NotificationWire, 'sid' | 'to'>): string | null {
  if (n.to) return n.to;
  return n.sid === null ? null : `/service/${n.sid}`;
}

/** What a notification names: the object and the service (a test notification: its set-up's name). */
export function notificationSubject(n: Pick<NotificationWire, 'params' | 'd'>): string {
  const service = n.params.service_name || n.d.n;
  return [n.params.object_name, service].filter((s) => s !== '').join(' · ');
}

export function isUnread(n: Pick<NotificationWire, 'stm'>): boolean {
  return n.stm === null;
}

/** Unread ones among `list`, optionally of one kind: what "mark all read" sends (spec §4). */
export function unreadIds(list: readonly NotificationWire[], kind?: number): string[] {
  return list.filter((n) => isUnread(n) && (kind === undefined || n.t === kind)).map((n) => n.id);
}

/**
 * The event ids of the first load: they count as already read for the bubbles (spec §4 "Notifications
 * shown on first load count as already read"), so a live event repeating one makes no bubble.
 */
export function firstLoadSeen(reply: AlertListReply | undefined): Set<string> {
  return new Set((reply?.alerts ?? []).map((n) => n.id));
}

/**
 * Whether a new live notification makes a bubble (spec §4): each event id once only, never one of the
 * first load, never one the user caused (it arrives read, or flagged `own`), only unread ones.
 */
export function makesBubble(n: NotificationWire, seen: ReadonlySet<string>, own: boolean): boolean {
  return !seen.has(n.id) && !own && isUnread(n);
}

/** The list after a live "created" notification: newest first, no duplicate event ids. */
export function withCreated(reply: AlertListReply, n: NotificationWire): AlertListReply {
  if (reply.alerts.some((a) => a.id === n.id)) return reply;
  const alerts = [n, ...reply.alerts].sort((a, b) => b.tm - a.tm);
  return { alerts, unread: reply.unread + (isUnread(n) ? 1 : 0) };
}

/** The list after notifications were read (here or in another session): `stm` set, unread counted down. */
export function withRead(reply: AlertListReply, ids: readonly string[], stm: number): AlertListReply {
  const set = new Set(ids);
  let changed = 0;
  const alerts = reply.alerts.map((a) => {
    if (!set.has(a.id) || !isUnread(a)) return a;
    changed++;
    return { ...a, stm, read: true };
  });
  if (changed === 0) return reply;
  return { alerts, unread: Math.max(0, reply.unread - changed) };
}

/** The list after notifications were deleted. */
export function withDeleted(reply: AlertListReply, ids: readonly string[]): AlertListReply {
  const set = new Set(ids);
  const gone = reply.alerts.filter((a) => set.has(a.id));
  if (gone.length === 0) return reply;
  return {
    alerts: reply.alerts.filter((a) => !set.has(a.id)),
    unread: Math.max(0, reply.unread - gone.filter(isUnread).length),
  };
}

// --- the bubble queue ---

/** A bubble's phase: shown (entering), active, fading, disappearing (collapsing), then removed. */
export type BubblePhase = 'shown' | 'active' | 'fading' | 'disappearing';

export interface Bubble {
  n: NotificationWire;
  phase: BubblePhase;
}

export interface Timers {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The bubbles on screen (spec §4 and §9): each becomes active after 100 ms, fades after 15 s for 500 ms,
 * disappears in 150 ms and is then removed; at most 5, the oldest hidden when a sixth arrives.
 */
export class BubbleQueue {
  private bubbles: Bubble[] = [];
  private timers = new Map<string, unknown>();
  private listeners = new Set<() => void>();

  constructor(private readonly clock: Timers = realTimers) {}

  list(): readonly Bubble[] {
    return this.bubbles;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shows a bubble; one already shown for the event id is not shown twice. */
  push(n: NotificationWire): void {
    if (this.bubbles.some((b) => b.n.id === n.id)) return;
    let next = [...this.bubbles, { n, phase: 'shown' as const }];
    while (next.length > BUBBLES_MAX) {
      const oldest = next[0] as Bubble;
      this.stop(oldest.n.id);
      next = next.slice(1);
    }
    this.bubbles = next;
    this.schedule(n.id, BUBBLE_ACTIVE_MS, () => {
      this.setPhase(n.id, 'active');
      this.schedule(n.id, BUBBLE_SHOWN_MS, () => this.fade(n.id));
    });
    this.emit();
  }

  /** Removes a bubble at once (it was clicked, read or deleted). */
  remove(id: string): void {
    if (!this.bubbles.some((b) => b.n.id === id)) return;
    this.stop(id);
    this.bubbles = this.bubbles.filter((b) => b.n.id !== id);
    this.emit();
  }

  /** Removes every bubble (sign-out, fleet switch). */
  clear(): void {
    for (const id of [...this.timers.keys()]) this.stop(id);
    if (this.bubbles.length === 0) return;
    this.bubbles = [];
    this.emit();
  }

  private fade(id: string): void {
    this.setPhase(id, 'fading');
    this.schedule(id, BUBBLE_FADE_MS, () => {
      this.setPhase(id, 'disappearing');
      this.schedule(id, BUBBLE_DISAPPEAR_MS, () => this.remove(id));
    });
  }

  private setPhase(id: string, phase: BubblePhase): void {
    this.bubbles = this.bubbles.map((b) => (b.n.id === id ? { ...b, phase } : b));
    this.emit();
  }

  private schedule(id: string, ms: number, fn: () => void): void {
    this.stop(id);
    this.timers.set(
      id,
      this.clock.set(() => {
        this.timers.delete(id);
        fn();
      }, ms),
    );
  }

  private stop(id: string): void {
    const handle = this.timers.get(id);
    if (handle !== undefined) this.clock.clear(handle);
    this.timers.delete(id);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
