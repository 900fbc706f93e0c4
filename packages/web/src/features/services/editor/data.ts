import type { ObjectType, UnitWire } from '@fleetkeep/core';
import { useMemo } from 'react';
import { useDrivers, useIntervals, useTrailers, useUnits } from '../../../lib/fleetData.ts';

/**
 * The lists the editor reads besides the service: objects, intervals and the line-item library. Each is
 * keyed and shaped like the other screens' queries of the same collection (an array), so they share the
 * cache and live events refresh them.
 */

/** A unit, driver or trailer of the pickers; units also carry their current mileage (km) and engine hours. */
export type EditorObject = { id: number; t: ObjectType; name: string } & Partial<
  Pick<UnitWire, 'cnm' | 'cneh'>
>;

/** Units, drivers and trailers of the fleet as one list. */
export function useObjects(fid: number | null) {
  const units = useUnits(fid);
  const drivers = useDrivers(fid);
  const trailers = useTrailers(fid);
  const objects = useMemo<EditorObject[]>(
    () => [
      ...(units.data ?? []).map((u) => ({ id: u.id, t: 'u' as const, name: u.nm, cnm: u.cnm, cneh: u.cneh })),
      ...(drivers.data ?? []).map((d) => ({ id: d.id, t: 'd' as const, name: d.n })),
      ...(trailers.data ?? []).map((d) => ({ id: d.id, t: 't' as const, name: d.n })),
    ],
    [units.data, drivers.data, trailers.data],
  );
  return { objects, pending: units.isPending || drivers.isPending || trailers.isPending };
}

export const useIntervalNames = (fid: number | null) => useIntervals<{ id: number; n: string }>(fid);
