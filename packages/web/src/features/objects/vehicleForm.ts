import {
  normalizeVin,
  UNIT_TAG_MAX,
  VEHICLE_FUEL_TYPES,
  type VehicleProfileBody,
  type VehicleProfileWire,
  vinIssue,
} from '@fleetkeep/core';
import { numericValue } from '../../components/numeric.ts';

/**
 * The vehicle section's draft and body (docs/product.md "The vehicle profile"). Numbers are kept as the
 * typed text; the tank capacity is in the profile's fuel unit, else the fleet's.
 */
export interface VehicleForm {
  vin: string;
  mk: string;
  md: string;
  yr: string;
  pl: string;
  ft: string;
  tc: string;
  tg: string[];
  nt: string;
}
export const VEHICLE_FIELDS = ['vin', 'mk', 'md', 'yr', 'pl', 'ft', 'tc', 'tg', 'nt'] as const;
export type VehicleField = (typeof VEHICLE_FIELDS)[number];
export { UNIT_TAG_MAX, VEHICLE_FUEL_TYPES };

export function vehicleFormOf(vp: VehicleProfileWire | undefined): VehicleForm {
  return {
    vin: vp?.vin ?? '',
    mk: vp?.mk ?? '',
    md: vp?.md ?? '',
    yr: vp?.yr == null ? '' : String(vp.yr),
    pl: vp?.pl ?? '',
    ft: vp?.ft ?? '',
    tc: vp?.tc == null ? '' : String(vp.tc),
    tg: [...(vp?.tg ?? [])],
    nt: vp?.nt ?? '',
  };
}

/** `PUT …/units/{id}` with the profile; `tu` the unit the capacity is typed in. */
export function vehicleBodyOf(form: VehicleForm, tu: 1 | 2): { vp: VehicleProfileBody } {
  const yr = numericValue(form.yr);
  const tc = numericValue(form.tc);
  return {
    vp: {
      vin: form.vin,
      mk: form.mk,
      md: form.md,
      yr,
      pl: form.pl,
      ft: form.ft as VehicleProfileBody['ft'],
      tc,
      tu: tc === null ? null : tu,
      tg: form.tg,
      nt: form.nt,
    },
  };
}

/** The field a body path names: `vp.vin` → `vin`. */
export const vehicleFieldOf = (path: readonly string[]): VehicleField | null => {
  const [first, second] = path;
  return first === 'vp' && (VEHICLE_FIELDS as readonly string[]).includes(second ?? '')
    ? (second as VehicleField)
    : null;
};

/**
 * What to say under the VIN as it is typed: nothing when empty; `valid` with a matching check digit;
 * `check` a warning (many European VINs carry no check digit; the VIN is kept); `length` and `chars`
 * refuse the save.
 */
export type VinState = 'empty' | 'valid' | 'check' | 'length' | 'chars';
export function vinState(text: string): VinState {
  if (normalizeVin(text) === '') return 'empty';
  return vinIssue(text) ?? 'valid';
}
