import { Acl, type LiveEvent } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { canReceive } from './visibility.js';

const ev = (s: LiveEvent['s'], fid: number | null, uid?: number): LiveEvent => ({
  t: 'u',
  s,
  fid,
  d: {},
  uid,
});

describe('event visibility (DESIGN §6, spec §6)', () => {
  const viewer = new Map([[1, Acl.viewInterval | Acl.viewService]]);
  const adminOnly = new Map([[1, Acl.admin]]);
  const intervalsOnly = new Map([[1, Acl.viewInterval]]);

  it('never crosses fleets', () => {
    expect(canReceive(ev('avl_unit', 2), 7, viewer)).toBe(false);
    expect(canReceive(ev('service', 2), 7, viewer)).toBe(false);
  });
  it('gives fleet and object events to every member', () => {
    for (const s of ['fleet', 'avl_unit', 'driver', 'trailer', 'customfield'] as const) {
      expect(canReceive(ev(s, 1), 7, adminOnly)).toBe(true);
    }
  });
  it('needs viewService for services and notifications, viewInterval for intervals', () => {
    expect(canReceive(ev('service', 1), 7, viewer)).toBe(true);
    expect(canReceive(ev('service', 1), 7, intervalsOnly)).toBe(false);
    expect(canReceive(ev('notification', 1), 7, adminOnly)).toBe(false);
    expect(canReceive(ev('interval', 1), 7, intervalsOnly)).toBe(true);
    expect(canReceive(ev('interval', 1), 7, adminOnly)).toBe(false);
    expect(canReceive(ev('lineitem', 1), 7, intervalsOnly)).toBe(true);
    expect(canReceive(ev('lineitem', 1), 7, adminOnly)).toBe(false);
  });
  it('sends user-addressed events to that user only', () => {
    expect(canReceive(ev('user', null, 7), 7, new Map())).toBe(true);
    expect(canReceive(ev('user', null, 7), 8, viewer)).toBe(false);
    expect(canReceive(ev('notification', 1, 8), 7, viewer)).toBe(false);
  });
  it('drops fleetless events that name no user', () => {
    expect(canReceive(ev('fleet', null), 7, viewer)).toBe(false);
  });
});
