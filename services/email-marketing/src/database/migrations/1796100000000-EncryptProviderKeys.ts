import { MigrationInterface, QueryRunner } from 'typeorm';
import { SecretBox } from '../../settings/secret-box';

/**
 * The providers' API keys encrypted at rest (issue 18): every stored key not sealed yet is sealed with
 * EMAIL_SECRETS_KEY. A class made per start, because the key comes from the validated config.
 */
export function encryptProviderKeysMigration(box: SecretBox) {
  return class EncryptProviderKeys1796100000000 implements MigrationInterface {
    name = 'EncryptProviderKeys1796100000000';

    async up(q: QueryRunner): Promise<void> {
      const rows: Array<{ stock_id: string; api_key: string }> = await q.query(
        `SELECT stock_id, api_key FROM email_marketing.settings WHERE api_key <> '' AND api_key NOT LIKE 'v1:%'`,
      );
      for (const row of rows)
        await q.query(`UPDATE email_marketing.settings SET api_key = $2 WHERE stock_id = $1`, [
          row.stock_id,
          box.seal(row.api_key),
        ]);
    }

    async down(q: QueryRunner): Promise<void> {
      const rows: Array<{ stock_id: string; api_key: string }> = await q.query(
        `SELECT stock_id, api_key FROM email_marketing.settings WHERE api_key LIKE 'v1:%'`,
      );
      for (const row of rows)
        await q.query(`UPDATE email_marketing.settings SET api_key = $2 WHERE stock_id = $1`, [
          row.stock_id,
          box.open(row.api_key),
        ]);
    }
  };
}
