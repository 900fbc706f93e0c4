import {
  CLIENT_FAULT_MESSAGE_MAX,
  CLIENT_FAULT_STACK_MAX,
  CLIENT_FAULT_URL_MAX,
  type ClientFaultKind,
  type ClientFaultReport,
  RELEASE,
  routes,
} from '@fleetkeep/core';
import { getSession } from './api.ts';

/**
 * Spec §8: client faults are reported to an error-reporting service with the release. The server is
 * that service (core routes/client-errors.ts `report`, kept in its log). One page load sends each distinct fault
 * once and at most MAX_REPORTS in all, so a fault in a render loop cannot flood the server. The body and
 * its limits are the core contract's (`clientFaultBody`).
 */
export const MAX_REPORTS = 20;

/** Browser noise that is not a fault of the product. */
const IGNORED = [/^ResizeObserver loop/, /^Script error\.?$/];

/** Turns anything thrown into a report body, or null for what is not worth reporting. */
export function faultBody(kind: ClientFaultKind, thrown: unknown, url: string): ClientFaultReport | null {
  let message: string;
  let stack: string | undefined;
  if (thrown instanceof Error) {
    message = `${thrown.name}: ${thrown.message}`;
    stack = thrown.stack;
  } else if (typeof thrown === 'string') {
    message = thrown;
  } else if (thrown && typeof thrown === 'object' && 'statusText' in thrown) {
    // A router error response (a thrown Response or data()).
    const status = 'status' in thrown ? String((thrown as { status: unknown }).status) : '';
    message = `Route error ${status} ${String((thrown as { statusText: unknown }).statusText)}`.trim();
  } else {
    try {
      message = JSON.stringify(thrown) ?? String(thrown);
    } catch {
      message = String(thrown);
    }
  }
  message = message.trim().slice(0, CLIENT_FAULT_MESSAGE_MAX);
  if (!message || IGNORED.some((re) => re.test(message))) return null;
  const body: ClientFaultReport = {
    kind,
    release: RELEASE,
    message,
    url: url.slice(0, CLIENT_FAULT_URL_MAX),
  };
  if (stack) body.stack = stack.slice(0, CLIENT_FAULT_STACK_MAX);
  return body;
}

/** Decides which faults of one page load are sent: each distinct one once, MAX_REPORTS in all. */
export class FaultGate {
  private readonly seen = new Set<string>();
  pass(body: ClientFaultReport): boolean {
    if (this.seen.size >= MAX_REPORTS) return false;
    const key = `${body.kind}\u0000${body.message}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}

const gate = new FaultGate();

export function reportFault(kind: ClientFaultKind, thrown: unknown): void {
  const body = faultBody(kind, thrown, `${window.location.pathname}${window.location.search}`);
  if (!body || !gate.pass(body)) return;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const ssid = getSession();
  if (ssid) headers.Authorization = `SSID ${ssid}`;
  // Not through the client's `api`: keepalive, so that a fault right before a reload or navigation is
  // still delivered, and a failed report is dropped: reporting must never raise a fault of its own.
  const { method, path } = routes.clientErrors.report;
  void fetch(path, {
    method,
    headers,
    body: JSON.stringify(body),
    keepalive: true,
  }).catch(() => undefined);
}

/** Window-level faults: uncaught errors and unhandled promise rejections. */
export function installFaultReporting(): void {
  window.addEventListener('error', (event) => {
    // Resource load failures (img, script) have no error object and are handled where they occur.
    if (event.error === undefined && !event.message) return;
    reportFault('error', event.error ?? event.message);
  });
  window.addEventListener('unhandledrejection', (event) => reportFault('rejection', event.reason));
}
