import { type LiveEvent, UserEventType } from '@fleetkeep/core';

/** The global fleet dialogs of spec §4, each with a Reload button. */
export type FleetDialog = 'lost' | 'settingsChanged' | 'changed';

export const FLEET_DIALOG_TEXT: Record<FleetDialog, string> = {
  lost: 'fleet.lost',
  settingsChanged: 'fleet.settingsChanged',
  changed: 'fleet.changed',
};

/**
 * Which dialog a live event opens for a user whose current fleet is `fid`: a delete of the current fleet
 * means access was lost; an update of it, changed settings; a user event of type 64 about the current
 * fleet (or naming none), a changed fleet. A change this session made itself (`own`) opens none: only
 * the other users are told.
 */
export function fleetDialogFor(event: LiveEvent, fid: number | null): FleetDialog | null {
  if (event.own === 1) return null;
  if (event.s === 'user') {
    const d = event.d as { type?: number; fid?: number } | null;
    if (d?.type !== UserEventType.fleetChanged) return null;
    return d.fid === undefined || d.fid === fid ? 'changed' : null;
  }
  if (event.s !== 'fleet' || fid === null || event.fid !== fid) return null;
  if (event.t === 'd') return 'lost';
  if (event.t === 'u') return 'settingsChanged';
  return null;
}
