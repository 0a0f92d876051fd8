import { describe, expect, it } from 'vitest';
import { PASSKEY_NOT_USED, passkeyErrorMessage } from './passkeys';

describe('passkeyErrorMessage', () => {
  it('says the passkey was not used when the prompt was closed, timed out or aborted', () => {
    expect(passkeyErrorMessage(new DOMException('timed out or not allowed', 'NotAllowedError'))).toBe(
      PASSKEY_NOT_USED,
    );
    expect(passkeyErrorMessage(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe(
      PASSKEY_NOT_USED,
    );
  });

  it("shows the server's refusal and the library's other messages", () => {
    expect(passkeyErrorMessage({ status: 401, data: { errorMessage: 'That passkey was refused' } })).toBe(
      'That passkey was refused',
    );
    expect(passkeyErrorMessage(new Error('WebAuthn is not supported in this browser'))).toBe(
      'WebAuthn is not supported in this browser',
    );
  });
});
