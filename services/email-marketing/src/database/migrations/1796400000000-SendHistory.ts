import type { EmailMarketingProvider } from '@irp/proto';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { campaignAudience } from '../../settings/email-settings-rules';

/**
 * Who was mailed an announcement is read from this service's sends and deliveries (issue 32, docs/adr/0013),
 * no longer from the copy the announcements service kept of `announcement.delivered`. A campaign's entry names
 * the provider's list it went to, so a send keeps it (`audience`); and the history of a stock is read by stock
 * and sendGuid, which no index served.
 */
export class SendHistory1796400000000 implements MigrationInterface {
  name = 'SendHistory1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_marketing.sends ADD COLUMN audience text`);
    // Campaigns sent before did not record their list: the one the stock's settings name now is the one they
    // went to unless the list was changed since, and the nearest this service can tell.
    const sent: Array<{ id: string; provider: EmailMarketingProvider; list_id: string }> = await q.query(
      `SELECT x.id, s.provider, s.list_id FROM email_marketing.sends x
       JOIN email_marketing.settings s ON s.stock_id = x.stock_id
       WHERE x.channel = 'email-marketing' AND x.status = 'done'`,
    );
    if (sent.length)
      await q.query(
        `UPDATE email_marketing.sends x SET audience = u.audience
         FROM unnest($1::uuid[], $2::text[]) AS u(id, audience) WHERE x.id = u.id`,
        [
          sent.map((r) => r.id),
          sent.map((r) => campaignAudience({ provider: r.provider, listId: r.list_id })),
        ],
      );
    await q.query(
      `CREATE INDEX sends_announcement ON email_marketing.sends (stock_id, send_guid) WHERE kind = 'announcement'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX email_marketing.sends_announcement`);
    await q.query(`ALTER TABLE email_marketing.sends DROP COLUMN audience`);
  }
}
