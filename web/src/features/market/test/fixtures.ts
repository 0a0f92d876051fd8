import type { MarketData } from '@irp/proto';

/** A stock's quote as the stock page carries it (currentMarketData), one field blank. */
export const QUOTE: MarketData = {
  ask: 45.12,
  bid: 45.1,
  last: 45.11,
  movement: -0.23,
  movementPercent: -0.51,
  open: 45.3,
  high: 45.5,
  low: 44.9,
  volume: 1234567,
  sharesOnIssue: 5_070_000_000,
  marketCap: null,
  updated: '2026-11-27T05:10:00.000Z',
};
