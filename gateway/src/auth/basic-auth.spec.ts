import { parseBasicAuth } from './basic-auth';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('parseBasicAuth', () => {
  it('reads username and password, keeping colons in the password and UTF-8 text', () => {
    expect(parseBasicAuth(`Basic ${b64('admin:pa:ss')}`)).toEqual({ username: 'admin', password: 'pa:ss' });
    expect(parseBasicAuth(`basic ${b64('zoë:pässwörd')}`)).toEqual({ username: 'zoë', password: 'pässwörd' });
  });
  it.each([
    undefined,
    '',
    'Bearer abc',
    'Basic',
    `Basic ${b64('nocolon')}`,
    `Basic ${b64(':pw')}`,
    `Basic ${b64('user:')}`,
    `Basic ${b64('  :pw')}`,
    `Basic ${b64('ad\u0000min:pw')}`,
    `Basic ${b64('admin:p\u0000w')}`,
  ])('rejects %p', (h) => expect(parseBasicAuth(h)).toBeUndefined());
});
