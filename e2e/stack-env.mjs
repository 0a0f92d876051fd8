/**
 * The browser suite's settings of the stack it starts (scripts/test.mjs spreads them into browserSuite's
 * stackEnv), beside the gateway's port and health-port offset that scripts/test.mjs sets.
 *
 * @param {{ gatewayPort: string | number }} stack
 * @returns {Record<string, string>}
 */
export function browserStackEnv({ gatewayPort }) {
  return {
    // The links in subscriber mails (confirm, unsubscribe) point at the gateway the tests open, not :3000.
    PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
    // No three months of trade history at start as `make up` loads (some 30 CPU-seconds beside the browsers):
    // the report specs load the prior trading day themselves (tests/report-helpers.ts, runPriorDay).
    MARKET_HISTORY_DAYS: '0',
  };
}
