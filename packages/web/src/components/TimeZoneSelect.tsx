import { tzOffsetMinutes } from '@fleetkeep/core';
import { Select as MantineSelect, type SelectProps } from '@mantine/core';
import { type KeyboardEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TIME_ZONES, utcOffsetText } from '../lib/timeZones.ts';
import { searchFilter } from './Select.tsx';

/**
 * The time-zone field of the set-up, the new fleet and the fleet settings (spec §5 time zones): the zones
 * of lib/timeZones.ts by offset and cities. Searching replaces the shown zone instead of typing into it
 * (a click or focus selects the whole text), typing filters, the first match is highlighted, and Enter
 * picks the highlighted zone: it never submits the form around it. A code the list does not name (set
 * through the API) still shows, by its offset.
 */
export function TimeZoneSelect({
  value,
  onChange,
  ...rest
}: Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable' | 'filter'> & {
  value: number;
  onChange: (tz: number) => void;
}) {
  const { t } = useTranslation();
  const zones = useMemo(() => {
    const list = TIME_ZONES.map((z) => ({
      value: String(z.tz),
      label: `${utcOffsetText(z.offset)} ${z.cities}${z.rule === 'none' ? '' : ` (${t('setup.summerTime')})`}`,
    }));
    if (!TIME_ZONES.some((z) => z.tz === value))
      list.unshift({ value: String(value), label: utcOffsetText(tzOffsetMinutes(value, 0)) });
    return list;
  }, [t, value]);
  const selectAll = (input: HTMLInputElement) => input.select();
  return (
    <MantineSelect
      {...rest}
      data={zones}
      value={String(value)}
      onChange={(v) => v !== null && onChange(Number(v))}
      searchable
      filter={searchFilter}
      allowDeselect={false}
      selectFirstOptionOnChange
      nothingFoundMessage={t('controls.noResults')}
      maxDropdownHeight={280}
      onFocus={(e) => selectAll(e.currentTarget)}
      onClick={(e) => selectAll(e.currentTarget)}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        // Enter belongs to the list (Mantine picks the highlighted zone), not to the form.
        if (e.key === 'Enter') e.preventDefault();
      }}
    />
  );
}
