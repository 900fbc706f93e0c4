import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface SearchFilterProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: string;
  /** Called with the text once typing pauses for `debounceMs`, at once when cleared. */
  onChange: (value: string) => void;
  debounceMs?: number;
}

/** Spec §2: a search filter input with a clear button; Escape clears too. */
export function SearchFilter({ value, onChange, debounceMs = 250, ...rest }: SearchFilterProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onChange);
  latest.current = onChange;

  // Follows outside changes (a reload, a back navigation) without fighting the user's typing.
  useEffect(() => {
    setText((current) => (timer.current === undefined ? value : current));
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const emit = (next: string, delay: number) => {
    clearTimeout(timer.current);
    if (delay <= 0) {
      timer.current = undefined;
      latest.current(next);
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current(next);
    }, delay);
  };
  const clear = () => {
    setText('');
    emit('', 0);
  };

  return (
    <TextInput
      type="search"
      placeholder={t('controls.search')}
      aria-label={t('controls.search')}
      {...rest}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        emit(e.currentTarget.value, debounceMs);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && text !== '') {
          e.preventDefault();
          clear();
        }
      }}
      rightSection={
        text !== '' ? <CloseButton size="sm" aria-label={t('controls.clear')} onClick={clear} /> : null
      }
    />
  );
}
