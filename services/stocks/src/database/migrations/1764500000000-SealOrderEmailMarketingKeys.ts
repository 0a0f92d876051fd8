import type { SecretBox } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The email-marketing API keys given on the order form encrypted at rest, like the email-marketing
 * service's provider keys: every stored key not sealed yet is sealed with STOCKS_SECRETS_KEY. A class made
 * per start, because the key comes from the validated config.
 */
export function sealOrderEmailMarketingKeysMigration(box: SecretBox) {
  /** Every stored key `which` selects, changed by `change`. */
  const rewrite = async (q: QueryRunner, which: string, change: (key: string) => string): Promise<void> => {
    const rows: Array<{ id: string; api_key: string }> = await q.query(
      `SELECT id, email_marketing->>'apiKey' AS api_key FROM stocks.service_orders
       WHERE email_marketing IS NOT NULL AND email_marketing->>'apiKey' <> ''
         AND email_marketing->>'apiKey' ${which}`,
    );
    for (const row of rows)
      await q.query(
        `UPDATE stocks.service_orders SET email_marketing = jsonb_set(email_marketing, '{apiKey}', to_jsonb($2::text))
         WHERE id = $1`,
        [row.id, change(row.api_key)],
      );
  };
  return class SealOrderEmailMarketingKeys1764500000000 implements MigrationInterface {
    name = 'SealOrderEmailMarketingKeys1764500000000';

    async up(q: QueryRunner): Promise<void> {
      await rewrite(q, `NOT LIKE 'v1:%'`, (key) => box.seal(key));
    }

    async down(q: QueryRunner): Promise<void> {
      await rewrite(q, `LIKE 'v1:%'`, (key) => box.open(key));
    }
  };
}
