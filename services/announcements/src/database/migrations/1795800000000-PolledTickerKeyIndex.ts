import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A market-wide poll looks up only the stocks of the tickers its feed read lists (`PollRepository.dueStocksOf`),
 * matched on the ticker key (`tickerKeySql`): one index probe per ticker instead of reading every polled stock.
 */
export class PolledTickerKeyIndex1795800000000 implements MigrationInterface {
  name = 'PolledTickerKeyIndex1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX stocks_polled_ticker_key ON announcements.stocks (upper(btrim(ticker)))
         WHERE poll_asx AND NOT archived`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX announcements.stocks_polled_ticker_key`);
  }
}
