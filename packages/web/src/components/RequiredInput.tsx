import { Popover, TextInput, type TextInputProps } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { alarmOf } from './required.ts';

export interface RequiredInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'error'> {
  value: string;
  onChange: (value: string) => void;
  /** Show the invalid alarm (spec §5), with `alarmText` or 'Invalid value'. */
  showInvalid?: boolean;
  alarmText?: string;
  /**
   * Controlled touch: when given, the caller decides (set it on blur and on a submit attempt, clear it after
   * a successful save); otherwise the field counts as touched once the user leaves it.
   */
  touched?: boolean;
}

/** Spec §2/§5: an input marked required with an asterisk and an alarm popup. Popup margin 10 px (spec §9). */
export function RequiredInput({
  value,
  onChange,
  showInvalid,
  alarmText,
  touched: controlled,
  onBlur,
  ...rest
}: RequiredInputProps) {
  const { t } = useTranslation();
  const [blurred, setBlurred] = useState(false);
  const alarmId = useId();
  const alarm = alarmOf({ value, touched: controlled ?? blurred, showInvalid, alarmText });
  const message =
    alarm === null
      ? null
      : alarm.kind === 'required'
        ? t('controls.required')
        : (alarm.text ?? t('controls.invalid'));
  return (
    <Popover
      opened={message !== null}
      position="bottom-start"
      offset={10}
      withArrow
      shadow="md"
      trapFocus={false}
      returnFocus={false}
      transitionProps={{ duration: 0 }}
      styles={{
        dropdown: {
          background: 'var(--mantine-color-red-7)',
          border: 0,
          color: 'var(--mantine-color-white)',
        },
        arrow: { background: 'var(--mantine-color-red-7)', border: 0 },
      }}
    >
      <Popover.Target>
        <TextInput
          withAsterisk
          {...rest}
          value={value}
          aria-required
          aria-invalid={message !== null}
          aria-describedby={message !== null ? alarmId : undefined}
          error={message !== null}
          onChange={(e) => onChange(e.currentTarget.value)}
          onBlur={(e) => {
            setBlurred(true);
            onBlur?.(e);
          }}
        />
      </Popover.Target>
      <Popover.Dropdown id={alarmId} role="alert" fz="sm" fw={500} py={4} px="xs">
        {message}
      </Popover.Dropdown>
    </Popover>
  );
}
