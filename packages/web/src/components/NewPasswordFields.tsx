import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@fleetkeep/core';
import { PasswordInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type NewPassword, newPasswordProblems } from './newPassword.ts';

export type { NewPassword } from './newPassword.ts';
export { EMPTY_NEW_PASSWORD } from './newPassword.ts';

/** Messages for the two fields, in the user's language; empty when the pair may be sent. */
export function newPasswordErrors(value: NewPassword, t: TFunction): { password?: string; repeat?: string } {
  const problems = newPasswordProblems(value);
  return {
    ...(problems.password && { password: t('newPassword.tooShort', { min: PASSWORD_MIN_LENGTH }) }),
    ...(problems.repeat && { repeat: t('newPassword.mismatch') }),
  };
}

export interface NewPasswordFieldsProps {
  value: NewPassword;
  onChange: (value: NewPassword, changed: keyof NewPassword) => void;
  /** Messages under the fields (from `newPasswordErrors` or the server). */
  errors?: { password?: string | null; repeat?: string | null };
  /** Labels of the screen ("Password", "New password"…). */
  passwordLabel: string;
  repeatLabel: string;
  disabled?: boolean;
  /** Focus the first field when a dialog opens (Mantine's `data-autofocus`). */
  autoFocus?: boolean;
}

/**
 * The new password and its repeat: one pair of inputs for every place a password is chosen, with the
 * minimum length as a hint (core `PASSWORD_MIN_LENGTH`) and browsers told it is a new password.
 */
export function NewPasswordFields({
  value,
  onChange,
  errors = {},
  passwordLabel,
  repeatLabel,
  disabled = false,
  autoFocus = false,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordInput
        label={passwordLabel}
        description={errors.password ? undefined : t('newPassword.tooShort', { min: PASSWORD_MIN_LENGTH })}
        required
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        value={value.password}
        error={errors.password || undefined}
        disabled={disabled}
        data-autofocus={autoFocus || undefined}
        onChange={(e) => onChange({ ...value, password: e.currentTarget.value }, 'password')}
      />
      <PasswordInput
        label={repeatLabel}
        required
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        value={value.repeat}
        error={errors.repeat || undefined}
        disabled={disabled}
        onChange={(e) => onChange({ ...value, repeat: e.currentTarget.value }, 'repeat')}
      />
    </>
  );
}
