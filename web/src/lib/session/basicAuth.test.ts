import { describe, expect, it } from 'vitest';
import { base64Utf8, basicAuthorization } from './basicAuth';

describe('basicAuthorization', () => {
  it('encodes username:password', () => {
    expect(basicAuthorization('admin', 'Admin!2026')).toBe('Basic YWRtaW46QWRtaW4hMjAyNg==');
  });

  it('encodes characters outside Latin-1 as UTF-8', () => {
    // printf 'zoë:pässwörd€' | base64
    expect(base64Utf8('zoë:pässwörd€')).toBe('em/Dqzpww6Rzc3fDtnJk4oKs');
  });

  it('keeps colons inside the password', () => {
    expect(atob(base64Utf8('u:a:b'))).toBe('u:a:b');
  });
});
