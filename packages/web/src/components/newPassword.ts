import { PASSWORD_MIN_LENGTH } from '@fleetkeep/core';

/**
 * A password being chosen, typed twice (first run, an admin's new user or password, the own change in
 * settings). The minimum is core's `PASSWORD_MIN_LENGTH`,
 * the one the server's contract (`userNewPassword`) checks. Pure.
 */
export interface NewPassword {
  password: string;
  repeat: string;
}

export const EMPTY_NEW_PASSWORD: NewPassword = { password: '', repeat: '' };

export interface NewPasswordProblems {
  password?: 'tooShort';
  repeat?: 'mismatch';
}

/** Too short (counted as the server counts: UTF-16 length), and a repeat that differs. */
export function newPasswordProblems({ password, repeat }: NewPassword): NewPasswordProblems {
  const out: NewPasswordProblems = {};
  if (password.length < PASSWORD_MIN_LENGTH) out.password = 'tooShort';
  if (repeat !== password) out.repeat = 'mismatch';
  return out;
}
