import { consumptionOf, convertVolume, FuelMeasure, type StatisticsUnitRow } from '@fleetkeep/core';
import { round3 } from '../fleets/mappers.js';
import { costPerKm, decimalOf } from './rules.js';

/**
 * The statistics' figures as the replies carry them (spec §7 "Fleet" statistics; core contracts
 * `statisticsUnitRow`): pure, shared by the fleet and unit calls (service.ts).
 */

/** Sums of `cost_days` rows: integer thousandths and counts. */
export interface CostSums {
  servicesCost: number;
  servicesCount: number;
  fuelCost: number;
  fuelCount: number;
  fuelL: number;
  fuelGal: number;
}

export const NO_COSTS: CostSums = {
  servicesCost: 0,
  servicesCount: 0,
  fuelCost: 0,
  fuelCount: 0,
  fuelL: 0,
  fuelGal: 0,
};

export interface UnitFigures extends CostSums {
  mileage: number;
  engineHours: number;
}

/** How the fleet reads: its fuel unit and measure system. */
export interface Units {
  fm: number;
  ms: number;
}

/**
 * Thousandths of the fleet's fuel unit: each written unit's exact sum converted once (core fuel.ts). A
 * sum of 0 is 0 in any unit: not converted (a conversion computes in BigInt; most units fill in one).
 */
export const volumeIn = (c: CostSums, fm: number) =>
  (c.fuelL === 0 ? 0 : convertVolume(c.fuelL, FuelMeasure.liter, fm)) +
  (c.fuelGal === 0 ? 0 : convertVolume(c.fuelGal, FuelMeasure.gallon, fm));

export function figuresToWire(f: UnitFigures, u: Units): Omit<StatisticsUnitRow, 'uid'> {
  const total = f.servicesCost + f.fuelCost;
  const volume = volumeIn(f, u.fm);
  return {
    mileage: round3(f.mileage),
    engine_hours: round3(f.engineHours),
    services_cost: decimalOf(f.servicesCost),
    cost_per_km: costPerKm(total, f.mileage),
    fuel_cost: decimalOf(f.fuelCost),
    total_cost: decimalOf(total),
    services_count: f.servicesCount,
    fuel_count: f.fuelCount,
    fuel_volume: decimalOf(volume),
    consumption: consumptionOf(volume, f.mileage, u.ms),
  };
}

/** A number's JSON text: its `String` text, and null for what JSON cannot hold (as JSON.stringify). */
const num = (v: number | null) => (v === null || !Number.isFinite(v) ? 'null' : String(v));

/**
 * `JSON.stringify({uid, ...figuresToWire(f, u)})`, written out: the fleet reply holds a row per unit
 * (10,000 in the dashboard's benchmark) and serialising an object each cost about four times as much
 *. Same keys in the same order (wire.test.ts checks it).
 */
export function unitRowJson(uid: number, f: UnitFigures, u: Units): string {
  const w = figuresToWire(f, u);
  return (
    `{"uid":${num(uid)},"mileage":${num(w.mileage)},"engine_hours":${num(w.engine_hours)},` +
    `"services_cost":${num(w.services_cost)},"cost_per_km":${num(w.cost_per_km)},` +
    `"fuel_cost":${num(w.fuel_cost)},"total_cost":${num(w.total_cost)},` +
    `"services_count":${num(w.services_count)},"fuel_count":${num(w.fuel_count)},` +
    `"fuel_volume":${num(w.fuel_volume)},"consumption":${num(w.consumption)}}`
  );
}
