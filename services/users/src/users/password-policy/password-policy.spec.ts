import { AppError } from '@irp/platform';
import { checkPassword, passwordProblem } from './password-policy';

describe('password policy', () => {
  it('accepts a long, uncommon password that is not the username', () => {
    expect(passwordProblem('Tasman-Harbour-77', 'alice')).toBeNull();
  });

  it('refuses a short one, counting characters rather than UTF-16 units', () => {
    expect(passwordProblem('Short!2026', 'alice')).toBe('The password must be at least 12 characters');
    expect(passwordProblem('😀😀😀😀😀😀', 'alice')).toMatch(/at least 12/);
  });

  it('refuses the username, whatever its case', () => {
    expect(passwordProblem('Alice-Liddell', 'alice-liddell')).toBe('The password must not be the username');
  });

  it('refuses a password of the shipped list, whatever its case', () => {
    expect(passwordProblem('Password1234', 'alice')).toBe('This password is too common; choose another');
    expect(passwordProblem('QWERTYUIOP123', 'alice')).toMatch(/too common/);
  });

  it('throws BAD_REQUEST with the reason', () => {
    expect(() => checkPassword('short', 'alice')).toThrow(AppError);
    expect(() => checkPassword('short', 'alice')).toThrow('at least 12 characters');
  });
});
