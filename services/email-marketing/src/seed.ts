import 'reflect-metadata';
import { createLogger, runMain } from '@irp/platform';
import { DEMO_PROVIDER_ACCOUNTS, DEMO_STOCK_IDS, EmailMarketingSettings } from '@irp/proto';
import { DataSource } from 'typeorm';
import { emailMarketingService } from './app.module';
import { SecretBox } from './settings/secret-box';

const log = createLogger('seed');

/**
 * The demo email-marketing settings, one stock per provider type, on the demo provider accounts (proto's
 * DEMO_PROVIDER_ACCOUNTS, which the providers' stand-in of `make up` serves; a real provider account works
 * the same once its key and list are entered).
 */
export const DEMO_EMAIL_SETTINGS: Array<{ stockId: string; settings: EmailMarketingSettings }> = [
  {
    stockId: DEMO_STOCK_IDS[0], // BHP
    settings: {
      provider: 'mailchimp',
      listId: DEMO_PROVIDER_ACCOUNTS.mailchimp.listId,
      apiKey: DEMO_PROVIDER_ACCOUNTS.mailchimp.apiKey,
      templateId: '1001',
      replyTo: 'investor.relations@bhp.example',
      fromName: 'BHP Investor Relations',
      savedSegmentId: '',
      clientId: '',
      testEmailAddresses: 'ir-team@bhp.example',
    },
  },
  {
    stockId: DEMO_STOCK_IDS[1], // VOD
    settings: {
      provider: 'campaign-monitor',
      listId: DEMO_PROVIDER_ACCOUNTS.campaignMonitor.listId,
      apiKey: DEMO_PROVIDER_ACCOUNTS.campaignMonitor.apiKey,
      templateId: 'cm-template',
      replyTo: 'ir@vodafone.example',
      fromName: 'Vodafone Investor Relations',
      savedSegmentId: '',
      clientId: DEMO_PROVIDER_ACCOUNTS.campaignMonitor.clientId,
      testEmailAddresses: 'ir-team@vodafone.example',
    },
  },
];

/** Demo subscribers of BHP: confirmed ones (who get its announcements), one pending, one who left. */
const DEMO_SUBSCRIBERS = [
  ...['alice', 'bob', 'carol', 'dave'].map((n) => ({ email: `${n}@investors.example`, status: 'confirmed' })),
  { email: 'erin@investors.example', status: 'pending' },
  { email: 'frank@investors.example', status: 'unsubscribed' },
];

/** Idempotent: settings are written where a stock has none; subscribers are added once. */
export async function seedDemoEmail(env: NodeJS.ProcessEnv = process.env) {
  if (emailMarketingService.loadConfig(env).NODE_ENV === 'production')
    throw new Error('Refusing to seed demo email settings when NODE_ENV=production');
  const app = await emailMarketingService.context(env);
  try {
    const db = app.get(DataSource);
    const box = app.get(SecretBox);
    for (const { stockId, settings: s } of DEMO_EMAIL_SETTINGS) {
      await db.query(
        `INSERT INTO email_marketing.settings (stock_id, provider, list_id, api_key, template_id, reply_to, from_name,
           saved_segment_id, client_id, test_email_addresses, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'seed') ON CONFLICT (stock_id) DO NOTHING`,
        [
          stockId,
          s.provider,
          s.listId,
          box.seal(s.apiKey),
          s.templateId,
          s.replyTo,
          s.fromName,
          s.savedSegmentId,
          s.clientId,
          s.testEmailAddresses,
        ],
      );
    }
    for (const { email, status } of DEMO_SUBSCRIBERS) {
      await db.query(
        `INSERT INTO email_marketing.subscribers (stock_id, email, status, consent_ip, consent_user_agent, confirmed_at,
           unsubscribed_at)
         VALUES ($1, $2, $3, '203.0.113.10', 'demo seed', CASE WHEN $3 <> 'pending' THEN now() END,
           CASE WHEN $3 = 'unsubscribed' THEN now() END)
         ON CONFLICT (stock_id, lower(email)) DO NOTHING`,
        [DEMO_STOCK_IDS[0], email, status],
      );
    }
    return { settings: DEMO_EMAIL_SETTINGS.length, subscribers: DEMO_SUBSCRIBERS.length };
  } finally {
    await app.close();
  }
}

if (require.main === module)
  runMain(() =>
    seedDemoEmail().then((r) => {
      log.info(r, 'demo email settings and subscribers seeded');
      process.exit(0);
    }),
  );
