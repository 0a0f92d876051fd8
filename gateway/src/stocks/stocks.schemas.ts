import { CLIENT_STOCK_FIELDS, REPLY_TO_COMMENT_FIELDS, StockFieldsSchema, StockId } from '@irp/proto';
import { z } from 'zod';

/** REST request shapes of the stocks routes. The rules (ticker, ISIN, emails...) live in the stocks service. */

/** Messages leave out the field's name: the validation pipe puts it in front ("ticker: Required"). */
const required = (max: number) =>
  z
    .string({ required_error: 'Required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'Required')
    .max(max, `must be at most ${max} characters`);

/** `TICKER:EXCHANGE` (or a bare ASX ticker). */
const combinedTickerText = required(40);

/** The `{combinedTicker}` path segment: no field path for the pipe to name, so the message does. */
export const CombinedTickerParamSchema = z
  .string()
  .trim()
  .min(1, 'combinedTicker is required')
  .max(40, 'combinedTicker must be at most 40 characters');

/** `?ticker=` of the notes, history and referers routes: a combinedTicker (spec: ticker = combinedTicker). */
export const TickerQuerySchema = z.object({ ticker: combinedTickerText });

export const CombinedTickerQuerySchema = z.object({ combinedTicker: combinedTickerText });

/**
 * POST /api/admin/stocks: stock fields plus an optional id (absent or null = create). Fields the web app
 * sends back from a loaded stock but cannot set (created, version...) are dropped, not refused.
 */
export const AdminSaveStockSchema = StockFieldsSchema.extend({
  id: StockId.nullish().transform((v) => v ?? undefined),
});

export const ChangeTickerSchema = z.object({
  exchange: required(10),
  ticker: required(20),
  newTicker: z.string({ required_error: 'Required', invalid_type_error: 'must be text' }).max(20),
});

export const ArchiveStockSchema = z.object({
  exchange: required(10),
  ticker: required(20),
  archived: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
});

export const SaveNoteSchema = z.object({
  ticker: combinedTickerText,
  details: z
    .string({ required_error: 'Required', invalid_type_error: 'must be text' })
    .max(20000, 'must be at most 20000 characters'),
});

/** What a client save may send: the client fields and the ReplyToComment fields. */
export const CLIENT_SAVE_FIELDS = [...CLIENT_STOCK_FIELDS, ...REPLY_TO_COMMENT_FIELDS] as const;
type ClientSaveField = (typeof CLIENT_SAVE_FIELDS)[number];

const clientMask = Object.fromEntries(CLIENT_SAVE_FIELDS.map((k) => [k, true])) as {
  [K in ClientSaveField]: true;
};
const allowedClientKeys = new Set<string>(['combinedTicker', ...CLIENT_SAVE_FIELDS]);

/**
 * POST /api/ClientStock. Strict: any other field is a 400 naming it, so a client can never think it
 * changed a field only staff may change.
 */
export const ClientSaveStockSchema = z
  .object({})
  .passthrough()
  .superRefine((body, ctx) => {
    const extra = Object.keys(body).filter((k) => !allowedClientKeys.has(k));
    if (extra.length) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `Not allowed in a client save: ${extra.join(', ')}`,
      });
    }
  })
  .pipe(StockFieldsSchema.pick(clientMask).extend({ combinedTicker: combinedTickerText }).strip());
export type ClientSaveStockBody = z.infer<typeof ClientSaveStockSchema>;
