import { z } from 'zod';
import { Exchange } from './rules';

export const ExchangeDtoSchema = z.object({
  code: z.nativeEnum(Exchange),
  name: z.string(),
  /** Where [View on Exchange] points, with `{ticker}` standing for the ticker. */
  viewUrlTemplate: z.string(),
});
export type ExchangeDto = z.infer<typeof ExchangeDtoSchema>;

export const NoteSchema = z.object({
  id: z.string().uuid(),
  date: z.string().datetime(),
  user: z.string(),
  details: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

export const FieldChangeSchema = z.object({
  fieldName: z.string(),
  originalValue: z.string().nullable(),
  newValue: z.string().nullable(),
});
export const VersionHistorySchema = z.object({
  versionId: z.number().int(),
  changedOn: z.string().datetime(),
  changedBy: z.string(),
  changes: z.array(FieldChangeSchema),
});
export type VersionHistory = z.infer<typeof VersionHistorySchema>;

export const RefererSchema = z.object({
  url: z.string(),
  count: z.number().int(),
  first: z.string().datetime(),
  last: z.string().datetime(),
});
export type Referer = z.infer<typeof RefererSchema>;

export const StockReferersSchema = z.object({
  ticker: z.string(),
  exchange: z.string(),
  combinedTicker: z.string(),
  /** Widget API requests ever answered for the stock. */
  hits: z.number().int(),
  referers: z.array(RefererSchema),
});
export type StockReferers = z.infer<typeof StockReferersSchema>;

/** What the public widget API tells a client website about its stock. */
export const WidgetStockSchema = z.object({
  ticker: z.string(),
  exchange: z.string(),
  combinedTicker: z.string(),
  isin: z.string(),
  companyName: z.string(),
  websiteUrl: z.string(),
  companyLogoUrl: z.string(),
});
export type WidgetStock = z.infer<typeof WidgetStockSchema>;
