/**
 * Stock ids the demo data uses. The stocks service's demo seed creates its first two stocks with these
 * ids, and the users service's demo client holds per-stock roles on them, so both seeds agree.
 */
export const DEMO_STOCK_IDS = [
  '00000000-0000-4000-8000-000000000001',
  '00000000-0000-4000-8000-000000000002',
] as const;

/**
 * The demo accounts of the email-marketing providers. The email-marketing demo seed points the demo stocks'
 * settings at them and the providers' stand-in (standins/) serves lists under them: both read them here, so
 * a production seed never depends on a stand-in and the two cannot drift apart.
 */
export const DEMO_PROVIDER_ACCOUNTS = {
  mailchimp: { apiKey: 'demo-mailchimp-key-us1', listId: 'demo-list' },
  campaignMonitor: { apiKey: 'demo-campaign-monitor-key', listId: 'cm-list', clientId: 'demo-client' },
} as const;

/**
 * The accounting system's demo connection: the client id and secret of a custom connection and its
 * organisation. The accounting stand-in (standins/) accepts them and the invoicing service's `make up`
 * configuration uses them; both read them here.
 */
export const DEMO_ACCOUNTING_CLIENT = {
  clientId: '6C0A7E3B5D9F41E28A4C0B6D2F8E1A35',
  clientSecret: 'demo-accounting-client-secret',
  tenantId: '3f7c9a2e-1b4d-4e8a-9c6f-0d2b5a7e8c41',
} as const;

/**
 * The market-data provider's demo API key: the market-data stand-in (standins/) accepts it and the reports
 * service's `make up` configuration sends it; both read it here.
 */
export const DEMO_MARKET_DATA_API_KEY = 'demo-market-data-key';
