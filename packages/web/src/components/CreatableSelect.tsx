import { Combobox, InputBase, type InputBaseProps, ScrollArea, useCombobox } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { blurOutcome } from './creatable.ts';
import { MENU_MAX_HEIGHT } from './Select.tsx';
import { canCreate, filterOptions, type SelectOption } from './search.ts';

const CREATE = '\u0000create';

export interface CreatableSelectProps extends Omit<InputBaseProps, 'value' | 'onChange'> {
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  /** Called with the trimmed text when the user picks 'Create "{text}"'. */
  onCreate: (text: string) => void;
  placeholder?: string;
}

/**
 * Spec §2/§5 creatable select: offers 'Create "{text}"' only for new, non-empty text. Text typed and left
 * (blur, Tab) is kept as the value, as if it had been picked or created (creatable.ts `blurOutcome`).
 */
export function CreatableSelect({
  options,
  value,
  onChange,
  onCreate,
  placeholder,
  ...rest
}: CreatableSelectProps) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const selected = options.find((o) => o.value === value) ?? null;
  const [search, setSearch] = useState(selected?.label ?? '');
  // A value set from outside (another field filled this one, e.g. a part taken from stock) shows at once.
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setSearch(selected?.label ?? '');
  }
  const shown = filterOptions(options, search === selected?.label ? '' : search);
  const creatable = canCreate(search, options);

  return (
    <Combobox
      store={combobox}
      withinPortal
      onOptionSubmit={(picked) => {
        if (picked === CREATE) {
          onCreate(search.trim());
        } else {
          onChange(picked);
          setSearch(options.find((o) => o.value === picked)?.label ?? '');
        }
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <InputBase
          {...rest}
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          value={search}
          placeholder={placeholder}
          onChange={(e) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setSearch(e.currentTarget.value);
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            const outcome = blurOutcome(search, options, selected);
            if (outcome.kind === 'create') {
              onCreate(outcome.text);
              setSearch(outcome.text);
            } else if (outcome.kind === 'pick') {
              onChange(outcome.value);
              setSearch(outcome.label);
            } else if (outcome.kind === 'revert') setSearch(selected?.label ?? '');
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          <ScrollArea.Autosize mah={MENU_MAX_HEIGHT} type="scroll">
            {shown.map((o) => (
              <Combobox.Option
                value={o.value}
                key={o.value}
                disabled={o.isDisabled}
                active={o.value === value}
              >
                {o.label}
              </Combobox.Option>
            ))}
            {creatable && (
              <Combobox.Option value={CREATE}>
                {t('controls.create', { text: search.trim() })}
              </Combobox.Option>
            )}
            {shown.length === 0 && !creatable && <Combobox.Empty>{t('controls.noResults')}</Combobox.Empty>}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
