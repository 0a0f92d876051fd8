import { emailMarketingConfigSchema } from '../config';
import { transportOptions } from './mailer';

const options = (SMTP_URL: string, env: Record<string, string> = {}) => {
  const config = emailMarketingConfigSchema.parse({ SMTP_URL, ...env });
  return transportOptions(config);
};

describe('SMTP transport options', () => {
  it('requires TLS (STARTTLS) to a server elsewhere by default', () => {
    expect(options('smtp://user:pass@mail.example.com:587')).toMatchObject({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      requireTLS: true,
      ignoreTLS: false,
      auth: { user: 'user', pass: 'pass' },
    });
  });

  it('smtps:// is TLS from the first byte: nothing more to require', () => {
    expect(options('smtps://mail.example.com')).toMatchObject({ secure: true, port: 465, requireTLS: false });
  });

  it('SMTP_REQUIRE_TLS=false lets a server elsewhere go without (STARTTLS when offered)', () => {
    expect(options('smtp://mail.example.com:25', { SMTP_REQUIRE_TLS: 'false' })).toMatchObject({
      requireTLS: false,
      ignoreTLS: false,
    });
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('a local server (%s) is never asked for TLS', (host) => {
    expect(options(`smtp://${host}:1025`)).toMatchObject({ requireTLS: false, ignoreTLS: true });
  });

  it('refuses a SMTP_REQUIRE_TLS that is not true or false', () => {
    const result = emailMarketingConfigSchema.safeParse({ SMTP_REQUIRE_TLS: 'yes' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['SMTP_REQUIRE_TLS'],
      message: "SMTP_REQUIRE_TLS must be 'true' or 'false'",
    });
  });
});
