import { PASSWORD_MIN_LENGTH } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { newPasswordProblems } from './newPassword.ts';

describe('a new password typed twice (core PASSWORD_MIN_LENGTH)', () => {
  const ok = 'x'.repeat(PASSWORD_MIN_LENGTH);

  it('passes at the minimum length with an equal repeat', () => {
    expect(newPasswordProblems({ password: ok, repeat: ok })).toEqual({});
  });

  it('one character short is too short', () => {
    const short = ok.slice(1);
    expect(newPasswordProblems({ password: short, repeat: short })).toEqual({ password: 'tooShort' });
  });

  it('a repeat that differs is a mismatch, also alongside a short password', () => {
    expect(newPasswordProblems({ password: ok, repeat: `${ok}y` })).toEqual({ repeat: 'mismatch' });
    expect(newPasswordProblems({ password: 'short', repeat: '' })).toEqual({
      password: 'tooShort',
      repeat: 'mismatch',
    });
  });
});
