import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service orders and their options (spec section 3). Options are data: rows of an option group that
 * staff manage (1764400000000 adds the groups). This migration once also inserted demo options; demo data is
 * the stocks seed's now (src/seed.ts), and 1764400000000 removes those rows from databases that have them.
 * Prices are integer cents (docs/architecture.md, "Data"); the API shows whole dollars. An order keeps the
 * option it was placed with as it was then (a later price change does not rewrite past orders).
 */
export class CreateServiceOrders1764300000000 implements MigrationInterface {
  name = 'CreateServiceOrders1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE stocks.service_options (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        group_id text NOT NULL,
        position int NOT NULL,
        name text NOT NULL,
        price_cents bigint NOT NULL CHECK (price_cents >= 0),
        line_items jsonb NOT NULL DEFAULT '[]',
        is_default boolean NOT NULL DEFAULT false,
        CONSTRAINT service_options_group_position_unique UNIQUE (group_id, position)
      )`);
    // At most one default option per group.
    await q.query(
      `CREATE UNIQUE INDEX service_options_one_default ON stocks.service_options (group_id) WHERE is_default`,
    );
    await q.query(`
      CREATE TABLE stocks.service_orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "timestamp" timestamptz NOT NULL DEFAULT now(),
        company_name text NOT NULL,
        ticker text NOT NULL,
        reference text NOT NULL DEFAULT '',
        option jsonb,
        authorised_by text NOT NULL,
        website text NOT NULL,
        address text NOT NULL,
        contact_name text NOT NULL,
        contact_phone text NOT NULL,
        contact_email text NOT NULL,
        abn text NOT NULL,
        listing_date text NOT NULL DEFAULT '',
        confirmation_email text NOT NULL DEFAULT '',
        send_price_sensitive_announcements boolean NOT NULL DEFAULT false,
        send_non_price_sensitive_announcements boolean NOT NULL DEFAULT false,
        auto_send_announcement_email boolean NOT NULL DEFAULT false,
        auto_send_non_price_sensitive_announcements boolean NOT NULL DEFAULT false,
        email_marketing jsonb,
        stock_id uuid REFERENCES stocks.stocks (id),
        created_at timestamptz
      )`);
    await q.query(`CREATE INDEX service_orders_timestamp ON stocks.service_orders ("timestamp" DESC)`);
    await q.query(
      `CREATE UNIQUE INDEX service_orders_stock ON stocks.service_orders (stock_id) WHERE stock_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE stocks.service_orders`);
    await q.query(`DROP TABLE stocks.service_options`);
  }
}
