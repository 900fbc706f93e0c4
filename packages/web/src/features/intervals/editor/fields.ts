import type { TFunction } from 'i18next';
import type { IntervalForm } from './rules.ts';
import type { FieldError, FieldErrors } from './validation.ts';

/** Changes the form; the server errors of `fields` are dropped, since the user is correcting them. */
export type Change = (fields: readonly string[], update: (form: IntervalForm) => IntervalForm) => void;

/** Props every tab receives. */
export interface TabProps {
  form: IntervalForm;
  errors: FieldErrors;
  readOnly: boolean;
  disabled: boolean;
  change: Change;
}

/** The text of a field's problem: the editor's translated message or the server's own words. */
export function errorText(t: TFunction, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  return 'key' in error ? t(error.key, error.values) : error.text;
}
