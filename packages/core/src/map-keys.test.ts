import { describe, expect, it } from 'vitest';
import { groupMapKeys, MapKeyBit, mapKeyRecords, pickTileKeys } from './map-keys.js';

const rec = (id: number, provider: string, type: number) => ({ id, provider, key: `k${id}`, type });

describe('map-provider keys (spec §3)', () => {
  it('reads the records of a get_keys reply and ignores anything else', () => {
    expect(mapKeyRecords({ 2: rec(2, 'osm', 16), 1: rec(1, 'google', 16), error: 0 })).toEqual([
      rec(1, 'google', 16),
      rec(2, 'osm', 16),
    ]);
    expect(mapKeyRecords({ error: 4 })).toEqual([]);
    expect(mapKeyRecords(null)).toEqual([]);
    expect(mapKeyRecords({ 1: { id: 1, provider: 'google' } })).toEqual([]);
  });

  it('groups records per provider with protected ones last', () => {
    const groups = groupMapKeys([
      rec(1, 'google', MapKeyBit.protected | MapKeyBit.tiles),
      rec(2, 'osm', MapKeyBit.tiles),
      rec(3, 'Google', MapKeyBit.tiles),
      rec(4, 'google', MapKeyBit.routing),
    ]);
    expect([...groups.keys()]).toEqual(['google', 'osm']);
    expect(groups.get('google')?.map((r) => r.id)).toEqual([3, 4, 1]);
    expect(groups.get('osm')?.map((r) => r.id)).toEqual([2]);
  });

  it('picks one tiles record for google and one for osm, unprotected first', () => {
    const picked = pickTileKeys([
      rec(1, 'google', MapKeyBit.protected | MapKeyBit.tiles),
      rec(2, 'google', MapKeyBit.geocoding),
      rec(3, 'google', MapKeyBit.tiles | MapKeyBit.routing),
      rec(4, 'osm', MapKeyBit.tiles),
      rec(5, 'osm', MapKeyBit.tiles),
      rec(6, 'here', MapKeyBit.tiles),
    ]);
    expect(picked.google?.id).toBe(3);
    expect(picked.osm?.id).toBe(4);
    expect(Object.keys(picked).sort()).toEqual(['google', 'osm']);
  });

  it('falls back to a protected record and leaves out providers without a tiles record', () => {
    const picked = pickTileKeys([rec(1, 'google', MapKeyBit.protected | MapKeyBit.tiles), rec(2, 'osm', 2)]);
    expect(picked.google?.id).toBe(1);
    expect(picked.osm).toBeUndefined();
    expect(pickTileKeys([])).toEqual({});
  });
});
