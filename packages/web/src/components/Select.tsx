import {
  type ComboboxItem,
  type ComboboxParsedItem,
  MultiSelect as MantineMultiSelect,
  type MultiSelectProps as MantineMultiSelectProps,
  Select as MantineSelect,
  type SelectProps as MantineSelectProps,
  type OptionsFilter,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { matchesSearch, type SelectOption } from './search.ts';

/** Spec §9: select menus are at most 300 px high and at least 140 px. */
export const MENU_MAX_HEIGHT = 300;
export const MENU_MIN_HEIGHT = 140;

export const toItems = (options: readonly SelectOption[]): ComboboxItem[] =>
  options.map((o) => ({ value: o.value, label: o.label, disabled: o.isDisabled ?? false }));

/** Case- and accent-blind search anywhere in the label (spec §5). */
export const searchFilter: OptionsFilter = ({ options, search }) => {
  const keep = (items: ComboboxParsedItem[]): ComboboxParsedItem[] =>
    items.flatMap((item): ComboboxParsedItem[] => {
      if ('group' in item) {
        const inner = keep(item.items) as ComboboxItem[];
        return inner.length ? [{ ...item, items: inner }] : [];
      }
      return matchesSearch(item.label, search) ? [item] : [];
    });
  return keep(options);
};

/** The menu opens below, and flips above when less than MENU_MIN_HEIGHT is left below (react-select's rule). */
export const menuProps = {
  maxDropdownHeight: MENU_MAX_HEIGHT,
  comboboxProps: { middlewares: { flip: true, shift: true } },
} as const;

export interface SelectProps extends Omit<MantineSelectProps, 'data' | 'filter'> {
  options: readonly SelectOption[];
}

/** Spec §2 single select: searchable, 'No results found' when nothing matches. */
export function Select({ options, searchable = true, ...rest }: SelectProps) {
  const { t } = useTranslation();
  return (
    <MantineSelect
      searchable={searchable}
      nothingFoundMessage={t('controls.noResults')}
      {...menuProps}
      {...rest}
      data={toItems(options)}
      filter={searchFilter}
    />
  );
}

export interface MultiSelectProps extends Omit<MantineMultiSelectProps, 'data' | 'filter'> {
  options: readonly SelectOption[];
}

/** Spec §2 multi select. */
export function MultiSelect({ options, searchable = true, ...rest }: MultiSelectProps) {
  const { t } = useTranslation();
  return (
    <MantineMultiSelect
      searchable={searchable}
      nothingFoundMessage={t('controls.noResults')}
      {...menuProps}
      {...rest}
      data={toItems(options)}
      filter={searchFilter}
    />
  );
}
