import { describe, expect, it } from 'vitest';
import { acceptsCode, secondFactorMethodsOf, secondFactorPrompt } from './secondFactor';

const needed = (methods: unknown) => ({
  status: 401,
  data: { statusCode: 401, errorMessage: 'Confirm it is you', secondFactor: { methods } },
});

describe('secondFactorMethodsOf', () => {
  it('reads the methods of the 401 that waits for a second factor', () => {
    expect(secondFactorMethodsOf(needed(['totp', 'passkey', 'recovery']))).toEqual([
      'passkey',
      'totp',
      'recovery',
    ]);
    expect(secondFactorMethodsOf(needed(['passkey']))).toEqual(['passkey']);
  });

  it('is null for a wrong password, another status, unknown methods or the network', () => {
    expect(secondFactorMethodsOf({ status: 401, data: { errorMessage: 'Unauthorized' } })).toBeNull();
    expect(secondFactorMethodsOf({ ...needed(['totp']), status: 403 })).toBeNull();
    expect(secondFactorMethodsOf(needed(['sms']))).toBeNull();
    expect(secondFactorMethodsOf(needed('totp'))).toBeNull();
    expect(secondFactorMethodsOf({ status: 'FETCH_ERROR', error: 'TypeError' })).toBeNull();
    expect(secondFactorMethodsOf(undefined)).toBeNull();
  });
});

describe('the second step', () => {
  it('takes a code for the authenticator app or a recovery code, not for a passkey alone', () => {
    expect(acceptsCode(['passkey'])).toBe(false);
    expect(acceptsCode(['passkey', 'recovery'])).toBe(true);
    expect(acceptsCode(['totp'])).toBe(true);
  });

  it('asks for what the methods allow', () => {
    expect(secondFactorPrompt(['passkey'])).toBe('Use your passkey to finish signing in.');
    expect(secondFactorPrompt(['passkey', 'totp', 'recovery'])).toMatch(/passkey.*authenticator/);
    expect(secondFactorPrompt(['totp', 'recovery'])).not.toMatch(/passkey/);
  });
});
