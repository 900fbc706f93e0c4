import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_UNIT_TYPES,
  type UnitTypeFilter as TypeChoice,
  UNKNOWN_TYPE,
  unitTypeKey,
} from '../lib/unitTypes.ts';
import { MultiSelect } from './Select.tsx';

/** A unit type's name in the user's language (the phrase of a known type, else the name as it is). */
export function useUnitTypeName(): (name: string) => string {
  const { t, i18n } = useTranslation();
  return (name) => (i18n.exists(unitTypeKey(name)) ? t(unitTypeKey(name)) : name);
}

export interface UnitTypeFilterProps {
  label: string;
  /** The unit types of the auth reply. */
  types: readonly { id: number; n: string }[];
  value: readonly TypeChoice[];
  onChange(types: TypeChoice[]): void;
  /** The label of the "no type" entry; without it the entry is not offered. */
  unknownLabel?: string;
  style?: CSSProperties;
  'data-testid'?: string;
}

/** The unit-type filter of the lists (lib/unitTypes.ts): a multi select of at most MAX_UNIT_TYPES types. */
export function UnitTypeFilter({
  label,
  types,
  value,
  onChange,
  unknownLabel,
  style,
  'data-testid': testId,
}: UnitTypeFilterProps) {
  const typeName = useUnitTypeName();
  const options = [
    ...types.map((ut) => ({ value: String(ut.id), label: typeName(ut.n) })),
    ...(unknownLabel === undefined ? [] : [{ value: UNKNOWN_TYPE, label: unknownLabel }]),
  ];
  return (
    <MultiSelect
      label={label}
      options={options}
      value={value.map(String)}
      maxValues={MAX_UNIT_TYPES}
      clearable
      onChange={(v) => onChange(v.map((s): TypeChoice => (s === UNKNOWN_TYPE ? UNKNOWN_TYPE : Number(s))))}
      style={style}
      data-testid={testId}
    />
  );
}
