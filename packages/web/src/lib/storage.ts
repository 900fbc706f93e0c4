/** Local storage under a configurable key prefix (spec §9); object values are stored as JSON. */
export const STORAGE_PREFIX: string = import.meta.env.VITE_STORAGE_PREFIX || 'fleetkeep.';

export function readStored<T>(key: string): T | undefined {
  try {
    const text = localStorage.getItem(STORAGE_PREFIX + key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage may be full or disabled: the session then lasts for this page only.
  }
}

export function removeStored(key: string): void {
  try {
    localStorage.removeItem(STORAGE_PREFIX + key);
  } catch {
    // nothing to remove
  }
}

/** Removes every key of ours (logout). */
export function clearStored(): void {
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith(STORAGE_PREFIX)) localStorage.removeItem(key);
    }
  } catch {
    // nothing to clear
  }
}
