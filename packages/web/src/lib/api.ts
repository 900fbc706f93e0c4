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

/** Error codes that count as a connection loss (spec §8). */
const OFFLINE_CODES = new Set([1, -1, -4, 500]);

let session: string | null = null;
let onSessionLost: (() => void) | null = null;

export function setSession(ssid: string | null): void {
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

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, anonymous = false, signal } = options;
  if (!anonymous && session === null) throw new ApiError(1, 'Session is not initialized', 0);
  const headers: Record<string, string> = {};
  if (!anonymous && session !== null) headers.Authorization = `SSID ${session}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
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
  let data: unknown;
  try {
    const text = await res.text();
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
    if (res.status >= 500 || OFFLINE_CODES.has(code)) setConnected(false);
    else setConnected(true);
    if (code === 1 && !anonymous) onSessionLost?.();
    throw failure;
  }
  setConnected(true);
  return data as T;
}
