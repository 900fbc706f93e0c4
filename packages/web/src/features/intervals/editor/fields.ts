import type { TFunction } from 'i18next';
import type { IntervalForm } from './rules.ts';
import type { FieldError } from './validation.ts';

/**
 * Changes the form; the errors of `fields` are dropped, since the user is correcting them (a name ending
 * in '.' drops a group: 'u.').
 */
export type Change = (fields: readonly string[], update: (form: IntervalForm) => IntervalForm) => void;

/** Props every tab receives. */
export interface TabProps {
  form: IntervalForm;
  /** The errors shown, worded, by field path. */
  errors: Partial<Record<string, string>>;
  readOnly: boolean;
  disabled: boolean;
  change: Change;
}

/** The text of a field's problem: the editor's translated message or the server's own words. */
export function errorText(t: TFunction, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  return 'key' in error ? t(error.key, error.values) : error.text;
}
