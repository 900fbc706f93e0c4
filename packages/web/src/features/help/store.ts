import { useSyncExternalStore } from 'react';
import { readStored, writeStored } from '../../lib/storage.ts';
import {
  type Box,
  type HelpMode,
  isDefaultPlace,
  parseStoredHelp,
  type StoredHelp,
  type Viewport,
} from './geometry.ts';

/**
 * The help dialog's state: open or closed, the section asked for, its box and mode, remembered in local
 * storage under the storage prefix (spec §2) and restored after a reload. Kept small: the header
 * imports it, the dialog itself is lazy.
 */

const KEY = 'help';

export function viewport(): Viewport {
  return { w: window.innerWidth, h: window.innerHeight };
}

let state: StoredHelp | null = null;
/** Bumped on each `openHelp` so that the dialog scrolls to the section again even if it is unchanged. */
let request = 0;
const listeners = new Set<() => void>();

function current(): StoredHelp {
  if (state === null) state = parseStoredHelp(readStored<unknown>(KEY), viewport());
  return state;
}

function set(next: StoredHelp, persist = true): void {
  state = next;
  if (persist) writeStored(KEY, next);
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useHelp(): StoredHelp {
  return useSyncExternalStore(subscribe, current);
}

export function useHelpRequest(): number {
  return useSyncExternalStore(subscribe, () => request);
}

/** Opens the dialog, at a section or group id when given (spec §2: by title from the header or menu). */
export function openHelp(section: string | null = null): void {
  const s = current();
  request += 1;
  set({ ...s, open: true, section, mode: s.mode === 'minimized' ? 'normal' : s.mode });
}

export function closeHelp(): void {
  set({ ...current(), open: false });
}

/** A box the user moved or resized: it stays where it was put, unless that is the default place. */
export function setHelpBox(box: Box, vp: Viewport = viewport()): void {
  set({ ...current(), box, docked: isDefaultPlace(box, vp) });
}

export function setHelpMode(mode: HelpMode): void {
  set({ ...current(), mode });
}

/**
 * Logout: the dialog closes (spec §2). Its place and size are a preference of this browser, not of the
 * session, so they are written back after the logout emptied the storage and the next login finds them.
 */
export function resetHelp(): void {
  if (state === null) return;
  set({ ...state, open: false, section: null });
  state = null;
}
