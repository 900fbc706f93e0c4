import { useMemo } from 'react';
import { parseTimeInput, timeOptions } from './datetime.ts';
import { Select, type SelectProps } from './Select.tsx';

export interface TimePickerProps extends Omit<SelectProps, 'options' | 'value' | 'onChange'> {
  /** HH:mm:ss, as requests send times. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** Minutes between choices (30 by default); the list always ends at 23:59:00. */
  stepMinutes?: number;
}

/** Spec §5 time picker: 00:00:00 through 23:59:00, shown as HH:mm, sent as HH:mm:ss. */
export function TimePicker({ value, onChange, stepMinutes = 30, ...rest }: TimePickerProps) {
  const options = useMemo(() => {
    const values = timeOptions(stepMinutes);
    // A valid time between the steps (e.g. 07:05:00 from the server) stays choosable.
    if (value && parseTimeInput(value) === value && !values.includes(value)) values.push(value);
    return values.sort().map((v) => ({ value: v, label: v.slice(0, 5) }));
  }, [stepMinutes, value]);
  return <Select {...rest} options={options} value={value} onChange={(v) => onChange(v)} />;
}
