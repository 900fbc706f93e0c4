import type { LiveEvent } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { fleetDialogFor } from './fleetDialogs.ts';

const ev = (over: Partial<LiveEvent>): LiveEvent => ({ t: 'u', s: 'fleet', fid: 1, d: {}, ...over });

describe('fleet dialogs (spec §4)', () => {
  it('a delete of the current fleet means access was lost', () => {
    expect(fleetDialogFor(ev({ t: 'd' }), 1)).toBe('lost');
  });
  it('an update of the current fleet means its settings changed', () => {
    expect(fleetDialogFor(ev({ t: 'u' }), 1)).toBe('settingsChanged');
  });
  it('events of other fleets, other collections or without a current fleet open nothing', () => {
    expect(fleetDialogFor(ev({ fid: 2 }), 1)).toBeNull();
    expect(fleetDialogFor(ev({ s: 'service' }), 1)).toBeNull();
    expect(fleetDialogFor(ev({ t: 'd' }), null)).toBeNull();
    expect(fleetDialogFor(ev({ t: 'c' }), 1)).toBeNull();
  });
  it('a user event of type 64 means the current fleet was changed', () => {
    expect(fleetDialogFor(ev({ s: 'user', fid: null, d: { type: 64 } }), 1)).toBe('changed');
    expect(fleetDialogFor(ev({ s: 'user', fid: null, d: { type: 0, ready: true } }), 1)).toBeNull();
  });
  it('a user event of type 64 about another fleet opens nothing', () => {
    expect(fleetDialogFor(ev({ s: 'user', fid: null, d: { type: 64, fid: 2 } }), 1)).toBeNull();
    expect(fleetDialogFor(ev({ s: 'user', fid: null, d: { type: 64, fid: 1 } }), 1)).toBe('changed');
  });
  it("the session's own change opens no dialog (only the other users are told)", () => {
    expect(fleetDialogFor(ev({ t: 'u', own: 1 }), 1)).toBeNull();
    expect(fleetDialogFor(ev({ s: 'user', fid: null, d: { type: 64, fid: 1 }, own: 1 }), 1)).toBeNull();
  });
});
