/**
 * The maps-service adapter (spec §7 "Map tiles", §8, §9): loads the provider's script at run time with a
 * language, version 'quarterly' and the key, then checks for it every 500 ms, 10 times. The script not
 * appearing is a developer error; a refused key is an authentication failure.
 */

export const SCRIPT_POLL_MS = 500;
export const SCRIPT_POLL_ATTEMPTS = 10;
const SCRIPT_URL = 'https://maps.googleapis.com/maps/api/js';

export type MapsServiceError = 'load' | 'auth';

export class MapsServiceFailure extends Error {
  constructor(readonly kind: MapsServiceError) {
    super(kind === 'auth' ? 'Maps service authentication failed' : 'Maps service script did not load');
    this.name = 'MapsServiceFailure';
  }
}

interface GoogleWindow {
  google?: { maps?: { Map?: unknown } };
  gm_authFailure?: () => void;
}

export function mapsScriptUrl(key: string, language: string): string {
  const q = new URLSearchParams({
    key,
    language,
    v: 'quarterly',
    loading: 'async',
    callback: 'Function.prototype',
  });
  return `${SCRIPT_URL}?${q.toString()}`;
}

let loading: Promise<void> | null = null;
const authListeners = new Set<() => void>();

/** Listens for the provider's authentication failure, which can come after the script loaded. */
export function onMapsServiceAuthFailure(listener: () => void): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

function hasMaps(w: GoogleWindow): boolean {
  return Boolean(w.google?.maps?.Map);
}

/** Loads the script once per page; a failed load may be tried again later. */
export function loadMapsService(key: string, language: string): Promise<void> {
  const w = window as unknown as GoogleWindow;
  if (hasMaps(w)) return Promise.resolve();
  if (loading) return loading;
  w.gm_authFailure = () => {
    for (const l of authListeners) l();
  };
  loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = mapsScriptUrl(key, language);
    script.async = true;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fail = (kind: MapsServiceError) => {
      clearTimeout(timer);
      script.remove();
      loading = null;
      reject(new MapsServiceFailure(kind));
    };
    const check = () => {
      if (hasMaps(w)) {
        resolve();
        return;
      }
      attempts++;
      if (attempts >= SCRIPT_POLL_ATTEMPTS) {
        // Spec §8: the script not appearing after 10 checks is a developer error.
        console.error(new Error(`Maps script did not appear after ${SCRIPT_POLL_ATTEMPTS} checks`));
        fail('load');
        return;
      }
      timer = setTimeout(check, SCRIPT_POLL_MS);
    };
    script.onerror = () => fail('load');
    document.head.append(script);
    timer = setTimeout(check, SCRIPT_POLL_MS);
  });
  return loading;
}
