import { type ClientFaultReport, type ClientFaultWire, ErrorCode } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import { type AppContext, now } from '../../context.js';
import { AppError, accessDenied } from '../../http/errors.js';

/**
 * Client faults (spec §8 "Client faults are reported to an error-reporting service with release
 * 4.4.34"). The self-hosted product is its own error-reporting service: every report goes to the server
 * log at warn level, and the newest ones stay in memory for super users to read. Reports come before
 * login too, so the call is public and limited per address.
 */
export type FaultReport = ClientFaultReport;
/** A kept report (core `clientFaultWire`): the report, its arrival time, user agent and user name. */
export type StoredFault = ClientFaultWire;

/** How many reports stay readable; the log keeps them all. */
export const KEPT_FAULTS = 200;
/** Reports accepted per address and minute; a broken page in a loop must not flood the log. */
export const FAULTS_PER_MINUTE = 30;

export class FaultRecorder {
  private readonly kept: StoredFault[] = [];
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** Counts a report from an address; false once the address used up its minute. */
  admit(address: string): boolean {
    const t = this.clock();
    const window = this.windows.get(address);
    if (!window || t - window.start >= 60_000) {
      if (this.windows.size > 10_000) this.prune(t);
      this.windows.set(address, { start: t, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= FAULTS_PER_MINUTE;
  }

  record(fault: StoredFault): void {
    this.kept.push(fault);
    if (this.kept.length > KEPT_FAULTS) this.kept.splice(0, this.kept.length - KEPT_FAULTS);
  }

  /** Newest first. */
  list(): StoredFault[] {
    return [...this.kept].reverse();
  }

  private prune(t: number): void {
    for (const [address, window] of this.windows) {
      if (t - window.start >= 60_000) this.windows.delete(address);
    }
  }
}

const recorders = new WeakMap<AppContext, FaultRecorder>();

export function faultRecorderOf(ctx: AppContext): FaultRecorder {
  let recorder = recorders.get(ctx);
  if (!recorder) {
    recorder = new FaultRecorder();
    recorders.set(ctx, recorder);
  }
  return recorder;
}

export function reportFault(
  ctx: AppContext,
  input: FaultReport,
  from: { address: string; userAgent: string; actor: Actor | undefined },
): void {
  const recorder = faultRecorderOf(ctx);
  if (!recorder.admit(from.address)) {
    throw new AppError(ErrorCode.tooManyRequests, 'Too many fault reports', { retry_after: 60 });
  }
  const fault: StoredFault = {
    ...input,
    tm: now(),
    userAgent: from.userAgent.slice(0, 512),
    user: from.actor?.name ?? null,
  };
  recorder.record(fault);
  ctx.log.warn({ clientFault: fault }, `client ${fault.kind} (release ${fault.release}): ${fault.message}`);
}

export function listFaults(ctx: AppContext, actor: Actor): { faults: StoredFault[] } {
  // Reports may hold user data from pages of any fleet: super users only, never through an API token.
  if (!actor.su || actor.apiTokenId !== null) throw accessDenied();
  return { faults: faultRecorderOf(ctx).list() };
}
