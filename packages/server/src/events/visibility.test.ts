import { Acl, type LiveEvent } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { canReceive, eventObject } from './visibility.js';

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

  describe('a member limited to assigned units (auth/reach.ts)', () => {
    const all = new Map([[1, 0xffffff & ~Acl.admin]]);
    const reach = new Map([[1, [5]]]);
    const of = (s: LiveEvent['s'], d: unknown, on?: LiveEvent['on']): LiveEvent => ({
      t: 'u',
      s,
      fid: 1,
      d,
      on,
    });

    it('hears of the reached unit, not of others', () => {
      const cases: [LiveEvent['s'], (unit: number) => unknown][] = [
        ['avl_unit', (id) => ({ id })],
        ['faultcode', (unitId) => ({ unitId })],
        ['fuelfilling', (uid) => ({ id: 9, uid })],
        ['assignment', (uid) => ({ id: 9, uid })],
        ['service', (uid) => ({ id: 9, t: 'u', uid })],
        ['issue', (object_id) => ({ id: 9, object_type: 'u', object_id })],
        ['workorder', (object_id) => ({ id: 9, object_type: 'u', object_id })],
      ];
      for (const [s, d] of cases) {
        expect(canReceive(of(s, d(5)), 7, all, reach), s).toBe(true);
        expect(canReceive(of(s, d(6)), 7, all, reach), s).toBe(false);
        // Without a reach for the fleet: everything.
        expect(canReceive(of(s, d(6)), 7, all, new Map()), s).toBe(true);
      }
    });
    it('reads the object of an event from `on` first', () => {
      expect(canReceive(of('inspection', { id: 3 }, { t: 'u', id: 5 }), 7, all, reach)).toBe(true);
      expect(canReceive(of('inspection', { id: 3 }, { t: 'u', id: 6 }), 7, all, reach)).toBe(false);
      expect(canReceive(of('issue', { id: 3 }, { t: 'u', id: 5 }), 7, all, reach)).toBe(true);
      expect(eventObject(of('issue', { id: 3 }, { t: 't', id: 5 }))).toEqual({ t: 't', id: 5 });
    });
    it('hears of changes of no object, not of drivers, trailers or unnamed objects', () => {
      expect(canReceive(of('inspection', { formId: 2 }), 7, all, reach)).toBe(true);
      expect(canReceive(of('inspection', { settings: true }), 7, all, reach)).toBe(true);
      expect(canReceive(of('faultcode', { unitId: null }), 7, all, reach)).toBe(true);
      expect(canReceive(of('lineitem', { id: 4 }), 7, all, reach)).toBe(true);
      expect(canReceive(of('fleet', { id: 1 }), 7, all, reach)).toBe(true);
      expect(canReceive(of('driver', { id: 5 }), 7, all, reach)).toBe(false);
      expect(canReceive(of('trailer', { id: 5 }), 7, all, reach)).toBe(false);
      expect(canReceive(of('service', { id: 9, t: 't', uid: 5 }), 7, all, reach)).toBe(false);
      // A deletion by id that names no object, an inspection without `on`.
      expect(canReceive(of('fuelfilling', { id: 9 }), 7, all, reach)).toBe(false);
      expect(canReceive(of('inspection', { id: 9 }), 7, all, reach)).toBe(false);
      // Rights still apply first.
      expect(canReceive(of('service', { id: 9, t: 'u', uid: 5 }), 7, new Map([[1, 0]]), reach)).toBe(false);
    });
  });
});
