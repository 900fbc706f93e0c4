import {
  type FuelFillingWire,
  fromThousandths,
  MeasureSystem,
  toThousandths,
  unitLabel,
  usesGallons,
  usesMiles,
} from '@fleetkeep/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { client } from './client.ts';
import { queryKeys } from './queryKeys.ts';

/**
 * Fuel fillings as the screens read them (spec §7 "Fuel fillings"; core contracts/fuel.ts): the read
 * hooks of the fleet's list of a period, of one unit's list and of one filling, under one key family
 * `queryKeys.collection(fid, 'fuelfilling')`, so a live `fuelfilling` event refreshes the list, the unit
 * page's fuel tab and the editor alike (lib/queryKeys.ts `keysForEvent`). Shared by the fuel feature and
 * the unit page (features never import each other). Volume and price are in the fleet's fuel unit `fm`,
 * money is money, mileage is km. The writes live with the fuel feature (features/fuel/api.ts).
 */

export const fuelKeys = {
  all: (fid: number) => queryKeys.collection(fid, 'fuelfilling'),
  period: (fid: number, from: string, to: string) =>
    [...queryKeys.collection(fid, 'fuelfilling'), 'period', from, to] as const,
  unit: (fid: number, uid: number, from: string, to: string) =>
    [...queryKeys.collection(fid, 'fuelfilling'), 'unit', uid, from, to] as const,
  one: (fid: number, id: number) => [...queryKeys.collection(fid, 'fuelfilling'), 'one', id] as const,
  attachments: (fid: number, id: number) =>
    [...queryKeys.collection(fid, 'fuelfilling'), 'one', id, 'attachments'] as const,
};

/** GET .../fuel-fillings?from&to: the fleet's fillings of a period (YYYY-MM-DD, ≤ 366 days). */
export function useFuelFillings(fid: number | null, from: string, to: string) {
  return useQuery({
    queryKey: fuelKeys.period(fid ?? 0, from, to),
    queryFn: async ({ signal }) => (await client.fuel.list(fid ?? 0, { from, to }, { signal })).fuel_fillings,
    enabled: fid !== null && from !== '' && to !== '',
    placeholderData: keepPreviousData,
  });
}

/** GET .../units/{id}/fuel-fillings?from&to: one unit's fillings of a period. */
export function useUnitFuelFillings(fid: number | null, uid: number, from: string, to: string) {
  return useQuery({
    queryKey: fuelKeys.unit(fid ?? 0, uid, from, to),
    queryFn: async ({ signal }) =>
      (await client.fuel.listOfUnit(fid ?? 0, uid, { from, to }, { signal })).fuel_fillings,
    enabled: fid !== null,
  });
}

/** GET .../fuel-fillings/{id}. */
export function useFuelFilling(fid: number | null, id: number | null) {
  return useQuery({
    queryKey: fuelKeys.one(fid ?? 0, id ?? 0),
    queryFn: ({ signal }) => client.fuel.get(fid ?? 0, id ?? 0, { signal }),
    enabled: fid !== null && id !== null,
    retry: false,
  });
}

/** Refreshes every fuel query of the fleet after a change. */
export function useInvalidateFuel(fid: number | null) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: fuelKeys.all(fid ?? 0) }),
      // The unit statistics hold the fuel cost of their period.
      client.invalidateQueries({ queryKey: queryKeys.statistics(fid ?? 0) }),
    ]);
}

// ---------------------------------------------------------------------------------------------------
// Exact sums and the units of display (spec §3 `fm` litres / US gallons, `ms` km / miles; §9 numbers)

/** Volume and cost of fillings summed in integer thousandths (no float drift), back as numbers. */
export function fuelTotals(rows: readonly Pick<FuelFillingWire, 'volume' | 'total_cost'>[]): {
  volume: number;
  cost: number;
  count: number;
} {
  let volume = 0;
  let cost = 0;
  for (const r of rows) {
    volume += toThousandths(r.volume) ?? Math.round(r.volume * 1000);
    cost += toThousandths(r.total_cost) ?? Math.round(r.total_cost * 1000);
  }
  return { volume: fromThousandths(volume), cost: fromThousandths(cost), count: rows.length };
}

/** The short label of the fleet's fuel unit ('L', 'gal', 'л'). */
export function volumeLabel(lang: string, fm: number | null | undefined): string {
  return unitLabel(lang, usesGallons(fm) ? 'gallon' : 'liter');
}

/**
 * The unit of a filling's `consumption` (core fuel.ts `consumptionOf`): fuel units per 100 km in a km
 * fleet ('L/100 km'), distance per fuel unit in a miles fleet ('mi/gal', i.e. mpg).
 */
export function consumptionLabel(lang: string, ms: number | null | undefined, fm: number | null | undefined) {
  const volume = volumeLabel(lang, fm);
  if (usesMiles(ms)) return `${unitLabel(lang, 'mile')}/${volume}`;
  return `${volume}/100 ${unitLabel(lang, 'kilometer')}`;
}

/** Whether `ms` measures in miles (for the helpers of lib/distance.ts that take a boolean). */
export const milesOf = (ms: number | null | undefined) => ms === MeasureSystem.miles;
