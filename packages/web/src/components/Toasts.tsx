import { Notification, Stack } from '@mantine/core';
import { useSyncExternalStore } from 'react';

/**
 * Short confirmations of what was just done ("Unit “Truck 7” created"), shown for a few seconds at the
 * bottom of the screen and read out by screen readers (a polite live region, not a `status` role: that is the loading
 * indicator's). One list for the page:
 * `toast()` adds, `Toasts` (in the shell) shows.
 */

interface Toast {
  id: number;
  text: string;
}

/** How long a confirmation stays. */
const SHOWN_MS = 4000;

let toasts: Toast[] = [];
let next = 1;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

function dismiss(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  changed();
}

/** Shows `text` as a confirmation. */
export function toast(text: string) {
  const id = next++;
  toasts = [...toasts, { id, text }];
  changed();
  setTimeout(() => dismiss(id), SHOWN_MS);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function Toasts() {
  const shown = useSyncExternalStore(subscribe, () => toasts);
  return (
    <Stack
      aria-live="polite"
      gap="xs"
      pos="fixed"
      bottom={16}
      left="50%"
      style={{ transform: 'translateX(-50%)', zIndex: 400, width: 'min(420px, calc(100vw - 32px))' }}
    >
      {shown.map((t) => (
        <Notification key={t.id} color="green" withBorder onClose={() => dismiss(t.id)} data-testid="toast">
          {t.text}
        </Notification>
      ))}
    </Stack>
  );
}
