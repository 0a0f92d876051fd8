/**
 * Stock ids the demo data uses. The stocks service's demo seed creates its first two stocks with these
 * ids, and the users service's demo client holds per-stock roles on them, so both seeds agree.
 */
export const DEMO_STOCK_IDS = [
  '00000000-0000-4000-8000-000000000001',
  '00000000-0000-4000-8000-000000000002',
] as const;
