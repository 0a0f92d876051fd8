import { securityNoticeMail } from './templates';

const notice = {
  userId: '11111111-1111-4111-8111-111111111111',
  to: 'investor.relations@example.com',
  passwordChanged: true,
  oneTimePassword: true,
  rolesChanged: false,
  by: 'useradmin',
  byTheUser: false,
  at: '2026-11-29T02:00:00.000Z',
};

describe('the security notice mail (issue 34)', () => {
  it('names who set a one-time password and when, and what to do if it was unexpected', () => {
    const mail = securityNoticeMail(notice, 'https://portal.example');
    expect(mail.subject).toBe('Your IR Portal password was changed');
    expect(mail.text).toContain(
      'useradmin set a new password for your IR Portal account; you will be asked to choose your own when you next sign in (29 Nov 2026 1:00 PM Sydney time).',
    );
    expect(mail.text).toContain('tell your IR Portal administrator at once');
    expect(mail.html).not.toContain('<script');
  });

  it("says 'you' for the user's own change, and names a change of roles", () => {
    const own = securityNoticeMail(
      { ...notice, oneTimePassword: false, byTheUser: true, by: 'x' },
      'https://p',
    );
    expect(own.text).toMatch(/^You changed your IR Portal password/);
    const roles = securityNoticeMail(
      { ...notice, passwordChanged: false, oneTimePassword: false, rolesChanged: true, by: '<b>admin</b>' },
      'https://p',
    );
    expect(roles.subject).toBe('Your IR Portal access was changed');
    expect(roles.text).toMatch(/^<b>admin<\/b> changed what your IR Portal account may see and do/);
    expect(roles.html).toContain('&lt;b&gt;admin&lt;/b&gt;');
  });
});
