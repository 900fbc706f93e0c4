import {
  type GuardUser,
  type LiveEvent,
  type SessionAuthReply,
  UserEventType,
  type UserSettings,
  type UserSettingsPatch,
} from '@fleetkeep/core';
import { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { setLanguage } from '../i18n/index.ts';
import { isLanguage } from '../i18n/languages.ts';
import { ApiError, setSession, setSessionLostHandler } from './api.ts';
import { client } from './client.ts';
import { type FleetDialog, fleetDialogFor } from './fleetDialogs.ts';
import { connectLive, createLiveCache, type LiveConnection, type LiveState } from './live.ts';
import { clearStored, readStored, removeStored, writeStored } from './storage.ts';

/**
 * The session of spec §4: a token from storage, then GET /api/auth; login, logout, fleet switch and
 * settings. Server data lives in TanStack Query; this store keeps only the auth reply.
 */

export type SessionState =
  | { status: 'loading' }
  | { status: 'anonymous'; loginError: string | null }
  | { status: 'authenticated'; auth: SessionAuthReply };

const TOKEN_KEY = 'token';
const ORIGIN_KEY = 'origin';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Live events patch or refetch the cached lists (lib/live.ts), coalesced. */
const liveCache = createLiveCache(queryClient);

let state: SessionState = { status: 'loading' };
let live: LiveConnection | null = null;
let liveState: LiveState = 'connecting';
/** The global fleet dialog a live event opened (spec §4), if any. */
let fleetDialog: FleetDialog | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

function set(next: SessionState): void {
  state = next;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, () => state);
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribe, () => liveState);
}

export function useFleetDialog(): FleetDialog | null {
  return useSyncExternalStore(subscribe, () => fleetDialog);
}

export function getSessionState(): SessionState {
  return state;
}

/** The guard input of core `guards.ts` from the auth reply. */
export function guardUser(auth: SessionAuthReply): GuardUser {
  return { su: Boolean(auth.su), admin: Boolean(auth.admin), fleets: auth.fleets, fid: auth.fid };
}

/** Set by an explicit logout, so that the screen the user left is not remembered as the origin. */
let explicitLogout = false;

export function isExplicitLogout(): boolean {
  return explicitLogout;
}

export function rememberOrigin(path: string): void {
  writeStored(ORIGIN_KEY, path);
}

/** Forgets the origin once the user got there (the shell calls it when it mounts). */
export function clearOrigin(): void {
  removeStored(ORIGIN_KEY);
}

export function peekOrigin(): string | null {
  return readStored<string>(ORIGIN_KEY) ?? null;
}

function onLiveEvent(event: LiveEvent): void {
  const fid = state.status === 'authenticated' ? state.auth.fid : null;
  const dialog = fleetDialogFor(event, fid);
  if (dialog === 'lost') void confirmLost(fid);
  else if (dialog !== null) openFleetDialog(dialog);
  if (event.s === 'user') {
    if ((event.d as { type?: number } | null)?.type === UserEventType.logout) void logout();
    return;
  }
  // A fleet made (or visible again) elsewhere joins the session's fleet list.
  if (event.s === 'fleet' && event.t === 'c') void refreshFleets().catch(() => undefined);
  liveCache.apply(event);
}

function openFleetDialog(dialog: FleetDialog): void {
  if (fleetDialog !== null) return;
  fleetDialog = dialog;
  emit();
}

/**
 * A delete event of the current fleet means access to it was lost (spec §4), unless the user still sees
 * the fleet with the same rights: a super user, or an account admin above a suspended account, keeps the
 * administrative view (server access.ts) and has lost nothing, so the fleets are read again to tell. A
 * loss keeps the old list until the reload the dialog asks for.
 */
async function confirmLost(fid: number | null): Promise<void> {
  const known = state.status === 'authenticated' ? state.auth.fleets : [];
  const before = known.find((f) => f.id === fid);
  const fleets = await client.fleets.list().then(
    (reply) => reply.fleets,
    () => null,
  );
  // A session that ended meanwhile (a refused read logs out) keeps no dialog for the next sign-in.
  if (state.status !== 'authenticated') return;
  const after = fleets?.find((f) => f.id === fid);
  if (fleets && before && after && after.acl === before.acl) {
    set({ status: 'authenticated', auth: { ...state.auth, fleets } });
    return;
  }
  openFleetDialog('lost');
}

function onLiveState(next: LiveState): void {
  // The connection came back after a loss: the page reloads (spec §2 "Connection overlay").
  if (next === 'open' && liveState === 'lost') {
    window.location.reload();
    return;
  }
  liveState = next;
  emit();
}

async function authenticate(token: string): Promise<void> {
  const auth = await client.session.auth({ access_token: token });
  setSession(auth.session);
  const lang = auth.model.s.lang;
  if (isLanguage(lang)) await setLanguage(lang);
  live?.close();
  liveState = 'connecting';
  live = connectLive(auth.session, {
    onEvent: onLiveEvent,
    onState: onLiveState,
    onRejected: () => void logout(),
  });
  set({ status: 'authenticated', auth });
}

function loginErrorKey(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 8) return 'login.errorCredentials';
    if (err.code === 9) return 'login.errorTooMany';
    // The only refusal of a right password is a suspended account (spec §4).
    if (err.code === 7) return 'login.errorSuspended';
  }
  return 'login.errorFailed';
}

/** Starts the application: a stored token is tried once; failure means the login screen. */
export async function bootstrap(): Promise<void> {
  setSessionLostHandler(() => void logout());
  const token = readStored<string>(TOKEN_KEY);
  if (!token) {
    set({ status: 'anonymous', loginError: null });
    return;
  }
  try {
    await authenticate(token);
  } catch {
    removeStored(TOKEN_KEY);
    setSession(null);
    set({ status: 'anonymous', loginError: null });
  }
}

export async function login(username: string, password: string): Promise<void> {
  try {
    const { access_token } = await client.session.login({ username, password });
    explicitLogout = false;
    writeStored(TOKEN_KEY, access_token);
    await authenticate(access_token);
  } catch (err) {
    // Spec §4: the login error is stored for display, then logout follows.
    removeStored(TOKEN_KEY);
    setSession(null);
    set({ status: 'anonymous', loginError: loginErrorKey(err) });
  }
}

/** Signs in with a login token the server just issued (the first-run set-up replies with one). */
export async function signInWithToken(token: string): Promise<void> {
  explicitLogout = false;
  writeStored(TOKEN_KEY, token);
  await authenticate(token);
}

/** Logout removes the token, closes the socket and empties every cache (spec §4). */
let loggingOut = false;

export async function logout(): Promise<void> {
  // A refused logout call answers error 1, which would ask for a logout again.
  if (loggingOut) return;
  loggingOut = true;
  try {
    if (state.status === 'authenticated') await client.session.logout().catch(() => undefined);
  } finally {
    loggingOut = false;
  }
  live?.close();
  live = null;
  liveState = 'connecting';
  fleetDialog = null;
  explicitLogout = true;
  setSession(null);
  clearStored();
  liveCache.reset();
  queryClient.clear();
  set({ status: 'anonymous', loginError: null });
}

export async function saveSettings(patch: UserSettingsPatch): Promise<UserSettings> {
  const merged = await client.user.settings(patch);
  if (state.status === 'authenticated') {
    set({ status: 'authenticated', auth: { ...state.auth, model: { ...state.auth.model, s: merged } } });
  }
  if (isLanguage(merged.lang)) await setLanguage(merged.lang);
  return merged;
}

/**
 * Re-reads the user's fleets (GET /api/fleets) into the auth reply, so that a fleet created after sign-in
 * is in the header's fleet switcher and passes the route guards without a reload.
 */
export async function refreshFleets(): Promise<void> {
  const { fleets } = await client.fleets.list();
  if (state.status === 'authenticated') set({ status: 'authenticated', auth: { ...state.auth, fleets } });
}

/** PUT /api/user/fleet, then every fleet query reloads (spec §4 "Switching the current fleet"). */
export async function switchFleet(fid: number): Promise<void> {
  await client.user.switchFleet({ fid });
  if (state.status === 'authenticated') set({ status: 'authenticated', auth: { ...state.auth, fid } });
  await queryClient.invalidateQueries();
}
