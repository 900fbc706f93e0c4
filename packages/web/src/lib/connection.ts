/**
 * Connection state of spec §4: disconnected after a reply with error 1, -1, -4 or 500 (or a dropped
 * live socket), connected after any other reply. The app shell shows the overlay from it.
 */
type Listener = (connected: boolean) => void;

let connected = true;
const listeners = new Set<Listener>();

export function isConnected(): boolean {
  return connected;
}

export function setConnected(next: boolean): void {
  if (next === connected) return;
  connected = next;
  for (const l of listeners) l(next);
}

export function onConnectionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
