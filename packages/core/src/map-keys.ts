/** Map-provider key records of spec §3 and the choice of tile keys (spec §3, §7 `user/get_keys`). */

/** Type bits of a key record. */
export const MapKeyBit = { protected: 1, routing: 2, geocoding: 4, optimization: 8, tiles: 16 } as const;

export interface MapKeyRecord {
  id: number;
  provider: string;
  key: string;
  type: number;
}

/** The tile providers the client picks a key for. */
export const TILE_PROVIDERS = ['google', 'osm'] as const;
export type TileProvider = (typeof TILE_PROVIDERS)[number];

function isRecord(value: unknown): value is MapKeyRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.id === 'number' &&
    typeof r.provider === 'string' &&
    typeof r.key === 'string' &&
    typeof r.type === 'number'
  );
}

/**
 * The records of a `user/get_keys` reply (a map keyed by id, or an object with an error field):
 * anything that is not a key record is left out; ordered by id.
 */
export function mapKeyRecords(reply: unknown): MapKeyRecord[] {
  if (typeof reply !== 'object' || reply === null) return [];
  return Object.values(reply as Record<string, unknown>)
    .filter(isRecord)
    .sort((a, b) => a.id - b.id);
}

/** Records grouped per provider (lower-cased), each group with protected records last, else by id. */
export function groupMapKeys(records: readonly MapKeyRecord[]): Map<string, MapKeyRecord[]> {
  const groups = new Map<string, MapKeyRecord[]>();
  for (const record of records) {
    const provider = record.provider.toLowerCase();
    let group = groups.get(provider);
    if (!group) {
      group = [];
      groups.set(provider, group);
    }
    group.push(record);
  }
  const isProtected = (r: MapKeyRecord) => ((r.type & MapKeyBit.protected) !== 0 ? 1 : 0);
  for (const group of groups.values()) group.sort((a, b) => isProtected(a) - isProtected(b) || a.id - b.id);
  return groups;
}

/**
 * One record for each tile provider (google, osm): the first of its group, in group order, whose tiles
 * flag is set. A provider without such a record is absent.
 */
export function pickTileKeys(records: readonly MapKeyRecord[]): Partial<Record<TileProvider, MapKeyRecord>> {
  const groups = groupMapKeys(records);
  const picked: Partial<Record<TileProvider, MapKeyRecord>> = {};
  for (const provider of TILE_PROVIDERS) {
    const record = groups.get(provider)?.find((r) => (r.type & MapKeyBit.tiles) !== 0);
    if (record) picked[provider] = record;
  }
  return picked;
}
