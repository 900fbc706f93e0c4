import { LRUCache } from 'lru-cache';
import { setConnected } from './connection.ts';

/** One API client (DESIGN §7): `Authorization: SSID <session>`, failures mapped to spec §8. */

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(reason);
    this.name = 'ApiError';
  }
}

/** HTTP 304: the kept body of the URL is still current. */
const NOT_MODIFIED = 304;

/** Error codes that count as a connection loss (spec §8). */
const OFFLINE_CODES = new Set([1, -1, -4, 500]);
/**
 * HTTP 507, the server's disk is full (ErrorCode.storageFull): the server is there and says why the
 * write failed, so the form shows that reason instead of the connection-lost overlay.
 */
const STORAGE_FULL = 507;

let session: string | null = null;
let onSessionLost: (() => void) | null = null;

/** Bounds of the conditional-read cache: entries, and characters of the bodies they were parsed from. */
export const REVALIDATE_MAX_ENTRIES = 32;
export const REVALIDATE_MAX_CHARS = 32 * 1024 * 1024;

interface Revalidated {
  etag: string;
  data: unknown;
  chars: number;
}

/**
 * The last tagged reply of each GET URL. API replies carry `Cache-Control: no-store`
 *, so the browser never revalidates by itself: the client sends the kept `ETag` as
 * `If-None-Match` and turns a 304 into the body it parsed before, so that the reloads after live
 * events cost next to nothing when nothing changed. Least recently used first out; emptied whenever the
 * session changes (logout, another user), so one user's data never answers another's read. Callers must
 * not mutate what `api` returns (the same object may be returned again).
 */
const revalidation = new LRUCache<string, Revalidated>({
  max: REVALIDATE_MAX_ENTRIES,
  maxSize: REVALIDATE_MAX_CHARS,
  sizeCalculation: (entry) => Math.max(1, entry.chars),
});

/** How many URLs the conditional-read cache holds (for tests). */
export function revalidationSize(): number {
  return revalidation.size;
}

export function setSession(ssid: string | null): void {
  if (ssid !== session) revalidation.clear();
  session = ssid;
}

export function getSession(): string | null {
  return session;
}

/** Called when the server answers error 1 for a call that had a session: the shell logs out. */
export function setSessionLostHandler(handler: (() => void) | null): void {
  onSessionLost = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Calls made before login (login, auth) carry no session. */
  anonymous?: boolean;
  signal?: AbortSignal;
}

/**
 * One JSON request with the session header, ETag revalidation and the error mapping. Internal to lib/:
 * the app calls the typed client (lib/client.ts) built on it; a test keeps it so (lib/client.test.ts).
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, anonymous = false, signal } = options;
  if (!anonymous && session === null) throw new ApiError(1, 'Session is not initialized', 0);
  const headers: Record<string, string> = {};
  if (!anonymous && session !== null) headers.Authorization = `SSID ${session}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const sentWith = session;
  const conditional = method === 'GET' && !anonymous;
  const kept = conditional ? revalidation.get(path) : undefined;
  if (kept) headers['If-None-Match'] = kept.etag;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    setConnected(false);
    throw new ApiError(-4, 'Network problems', 0);
  }
  if (res.status === NOT_MODIFIED && kept && sentWith === session) {
    setConnected(true);
    return kept.data as T;
  }
  let data: unknown;
  let chars = 0;
  try {
    const text = await res.text();
    chars = text.length;
    data = text === '' ? {} : JSON.parse(text);
  } catch {
    setConnected(false);
    throw new ApiError(418, 'Invalid json', res.status);
  }
  const error = (data as { error?: unknown }).error;
  if (!res.ok || (typeof error === 'number' && error !== 0)) {
    const code = typeof error === 'number' ? error : Math.min(res.status, 500);
    const reason = String((data as { reason?: unknown }).reason ?? res.statusText);
    const failure = new ApiError(code, reason, res.status, (data as { details?: unknown }).details);
    if ((res.status >= 500 && res.status !== STORAGE_FULL) || OFFLINE_CODES.has(code)) setConnected(false);
    else setConnected(true);
    if (code === 1 && !anonymous) onSessionLost?.();
    throw failure;
  }
  setConnected(true);
  const etag = conditional ? res.headers.get('ETag') : null;
  if (etag && sentWith === session) revalidation.set(path, { etag, data, chars });
  else if (conditional) revalidation.delete(path);
  return data as T;
}
