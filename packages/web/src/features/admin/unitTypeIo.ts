import type { TeltonikaIoMapping } from '@fleetkeep/core';

/**
 * Pure rules of a unit type's Teltonika IO form (DESIGN §3, Teltonika port; core contracts/telematics.ts
 * `teltonikaIoMapping`): the draft the dialog edits and the body it sends. An empty id means "none":
 * IO 16 for mileage, the ignition for engine hours.
 */

export interface UnitTypeIoForm {
  mileageId: string;
  mileageUnit: 'm' | 'km';
  hoursId: string;
  hoursUnit: 's' | 'h';
}

export type UnitTypeIoField = keyof UnitTypeIoForm;

export function unitTypeIoDraft(mapping: TeltonikaIoMapping): UnitTypeIoForm {
  return {
    mileageId: mapping.mileage ? String(mapping.mileage.id) : '',
    mileageUnit: mapping.mileage?.unit ?? 'm',
    hoursId: mapping.hours ? String(mapping.hours.id) : '',
    hoursUnit: mapping.hours?.unit ?? 's',
  };
}

/** Digits only make a number; anything else goes to the contract as NaN (refused as invalid there). */
const idOf = (text: string): number => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

export function unitTypeIoBody(form: UnitTypeIoForm): TeltonikaIoMapping {
  return {
    mileage: form.mileageId.trim() === '' ? null : { id: idOf(form.mileageId), unit: form.mileageUnit },
    hours: form.hoursId.trim() === '' ? null : { id: idOf(form.hoursId), unit: form.hoursUnit },
  };
}

/** The form field of a body path (`mileage.id`, from the core contract or the server's `body.mileage.id`). */
export function unitTypeIoFieldOf(path: readonly string[]): UnitTypeIoField | null {
  const [group, leaf] = path[0] === 'body' ? path.slice(1) : path;
  if (group !== 'mileage' && group !== 'hours') return null;
  return leaf === 'unit' ? `${group}Unit` : `${group}Id`;
}
