/**
 * The browser suite's settings of the stack it starts (scripts/test.mjs spreads them into browserSuite's
 * stackEnv), beside the gateway's port and health-port offset that scripts/test.mjs sets. The links the
 * stack mails are not set here: scripts/stack.mjs points them at its web app as `make up` does, and the
 * mail-following specs (tests/subscription.spec.ts) check that they open their pages.
 *
 * @returns {Record<string, string>}
 */
export function browserStackEnv() {
  return {
    // No three months of trade history at start as `make up` loads (some 30 CPU-seconds beside the browsers):
    // the report specs load the prior trading day themselves (tests/report-helpers.ts, runPriorDay).
    MARKET_HISTORY_DAYS: '0',
  };
}
