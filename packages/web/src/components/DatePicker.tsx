import '@mantine/dates/styles.css';
import { formatDate } from '@fleetkeep/core';
import { Popover, TextInput, type TextInputProps } from '@mantine/core';
import { DatePicker as Calendar } from '@mantine/dates';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayjsLocale } from '../i18n/index.ts';
import { parseDateInFormat, parseRequestDate, requestDateOf } from './datetime.ts';
import { IconButton } from './IconButton.tsx';

/** Spec §9: the calendar hides 100 ms after a day click; popups keep a 10 px margin. */
export const HIDE_AFTER_DAY_CLICK_MS = 100;
const POPUP_MARGIN = 10;

export interface DatePickerProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  /** The date as requests send it (YYYY-MM-DD), or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** The user's date format (settings): what the field shows, what its placeholder says, how it is typed. */
  dateFormat?: string;
}

function display(value: string | null, dateFormat: string): string {
  const date = value ? parseRequestDate(value) : null;
  if (!date) return '';
  return formatDate(dayjs(requestDateOf(date)).unix(), dateFormat, dayjsLocale());
}

/** A drawn icon: an emoji depends on the fonts of the machine and shows as a box without them. */
function CalendarIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" />
    </svg>
  );
}

/** The short month names of the page language, as the format token MMM shows them. */
function monthNames(): string[] {
  const locale = dayjsLocale();
  return Array.from({ length: 12 }, (_, m) =>
    dayjs(new Date(2026, m, 1))
      .locale(locale)
      .format('MMM'),
  );
}

/**
 * Spec §5 date picker with a calendar popup. One format per field: it shows, and is typed in,
 * the user's date format, which its placeholder names; focus does not switch it (the spec's YYYY-M-D is
 * taken as well). Invalid text leaves the value unchanged and marks the field.
 */
export function DatePicker({ value, onChange, dateFormat = 'YYYY-MM-DD', ...rest }: DatePickerProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [opened, setOpened] = useState(false);
  const hide = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(hide.current), []);
  const parse = (typed: string) => parseDateInFormat(typed, dateFormat, monthNames());
  const invalid = editing && text.trim() !== '' && parse(text) === null;

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" offset={POPUP_MARGIN} trapFocus>
      <Popover.Target>
        <TextInput
          placeholder={dateFormat}
          {...rest}
          value={editing ? text : display(value, dateFormat)}
          error={invalid ? t('controls.invalid') : rest.error}
          onFocus={() => {
            setEditing(true);
            setText(display(value, dateFormat));
          }}
          onChange={(e) => {
            const next = e.currentTarget.value;
            setText(next);
            if (next.trim() === '') onChange(null);
            else {
              const parsed = parse(next);
              if (parsed) onChange(requestDateOf(parsed));
            }
          }}
          onBlur={() => setEditing(false)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && e.altKey) setOpened(true);
          }}
          rightSection={
            <IconButton
              aria-label={t('controls.openCalendar')}
              onClick={() => setOpened((o) => !o)}
              size="sm"
            >
              <CalendarIcon />
            </IconButton>
          }
        />
      </Popover.Target>
      <Popover.Dropdown>
        <Calendar
          locale={dayjsLocale()}
          value={value}
          defaultDate={value ?? undefined}
          onChange={(picked) => {
            onChange(picked);
            clearTimeout(hide.current);
            hide.current = setTimeout(() => setOpened(false), HIDE_AFTER_DAY_CLICK_MS);
          }}
        />
      </Popover.Dropdown>
    </Popover>
  );
}
