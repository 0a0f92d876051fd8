import { z } from 'zod';
import { StockId } from '../common/session';
import { StockSchema } from './stock';

/** Event-carried state: the whole stock, keyed by stock id. Other services keep their projection from it. */
export const StockUpsertedEventSchema = StockSchema;
export type StockUpsertedEvent = z.infer<typeof StockUpsertedEventSchema>;

export const StockTickerChangedEventSchema = z.object({
  id: StockId,
  exchange: z.string(),
  oldTicker: z.string(),
  newTicker: z.string(),
  oldCombinedTicker: z.string(),
  newCombinedTicker: z.string(),
  changedBy: z.string(),
  changedAt: z.string().datetime(),
});
export type StockTickerChangedEvent = z.infer<typeof StockTickerChangedEventSchema>;

export const StockArchivedEventSchema = z.object({
  id: StockId,
  combinedTicker: z.string(),
  archived: z.boolean(),
  changedBy: z.string(),
  changedAt: z.string().datetime(),
});
export type StockArchivedEvent = z.infer<typeof StockArchivedEventSchema>;
