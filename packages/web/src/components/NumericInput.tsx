import { TextInput, type TextInputProps } from '@mantine/core';
import { type NumericRules, sanitizeNumeric } from './numeric.ts';

export interface NumericInputProps extends Omit<TextInputProps, 'value' | 'onChange'>, NumericRules {
  /** The sanitized text ('' when empty); use numericValue() to read the number. */
  value: string;
  onChange: (value: string) => void;
}

/** Spec §5 numeric input: digits and one decimal point, capped integer part, at most 3 fraction digits. */
export function NumericInput({
  value,
  onChange,
  integerOnly,
  maxIntegerLength,
  precision,
  ...rest
}: NumericInputProps) {
  const rules = { integerOnly, maxIntegerLength, precision };
  return (
    <TextInput
      inputMode={integerOnly ? 'numeric' : 'decimal'}
      autoComplete="off"
      {...rest}
      value={value}
      onChange={(e) => onChange(sanitizeNumeric(e.currentTarget.value, rules))}
      onPaste={(e) => {
        // Paste keeps only the numeric part of the clipboard text, in place of the selection.
        const input = e.currentTarget;
        const pasted = e.clipboardData.getData('text');
        e.preventDefault();
        const start = input.selectionStart ?? input.value.length;
        const end = input.selectionEnd ?? input.value.length;
        const clean = sanitizeNumeric(pasted, rules);
        onChange(sanitizeNumeric(input.value.slice(0, start) + clean + input.value.slice(end), rules));
      }}
    />
  );
}
