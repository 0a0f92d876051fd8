import { randomUUID } from 'node:crypto';
import type { Stock } from '@irp/proto';
import { stockFixture } from '@irp/proto/testing';

/** A stock of a test as the stocks service publishes it: `<ticker>:ASX`, a new id, now as its version. */
export const asxStock = (ticker: string, fields: Partial<Stock> = {}): Stock =>
  stockFixture({
    id: randomUUID(),
    ticker,
    combinedTicker: `${ticker}:ASX`,
    companyName: `${ticker} Limited`,
    updatedAt: new Date().toISOString(),
    ...fields,
  });
