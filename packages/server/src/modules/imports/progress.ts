import { type ImportProgressEvent, UserEventType } from '@fleetkeep/core';
import type { Actor } from '../../auth/actor.js';
import type { AppContext } from '../../context.js';
import { announce } from '../../events/unit-of-work.js';

export type ImportPhase = ImportProgressEvent['phase'];
export type ProgressReport = (phase: ImportPhase, done: number, total: number) => Promise<void>;

/**
 * The progress of one import run, as live events to
 * the importing user only (core events.ts user event type 128, DESIGN §6 bus: every instance's sockets),
 * named by the id the client sent. Reports are sent in order; a report that does not move (same phase and
 * count) is dropped. Without an id nothing is sent.
 */
export function importProgress(
  ctx: AppContext,
  actor: Actor,
  fleetId: number,
  id: string | undefined,
): ProgressReport {
  if (id === undefined) return async () => undefined;
  let last = '';
  let sending: Promise<void> = Promise.resolve();
  return (phase, done, total) => {
    const key = `${phase}:${done}`;
    if (key === last) return sending;
    last = key;
    const d: ImportProgressEvent = {
      type: UserEventType.importProgress,
      id,
      fid: fleetId,
      phase,
      done,
      total,
    };
    // Chained: a slow bus (NOTIFY on PostgreSQL) never reorders two reports.
    sending = sending
      .then(() => announce(ctx, { t: 'e', s: 'user', fid: null, uid: actor.userId, d }))
      .catch((err) => ctx.log.warn({ err }, 'import progress event failed'));
    return sending;
  };
}
