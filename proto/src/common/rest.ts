import { z } from 'zod';

/**
 * REST pieces every route shares: the one error body, the save-route variant of it, and the gateway's
 * /health answer (cookie names: cookies.ts). Each service folder's `rest.ts` holds its own routes' shapes.
 */

/** Error body of every non-2xx answer from the gateway. */
export const ApiErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  /** The same text as `message`: the spec's name for it. */
  errorMessage: z.string(),
});
export type ApiErrorDto = z.infer<typeof ApiErrorSchema>;

/**
 * Save routes (spec section 7: "response success, stock, errorMessage") answer errors with
 * `success: false, stock: null` beside the one error body.
 */
export const SaveErrorSchema = ApiErrorSchema.extend({ success: z.literal(false), stock: z.null() });
export type SaveErrorDto = z.infer<typeof SaveErrorSchema>;

/** The 2xx answer of a save route: the saved thing under `stock`. Errors are SaveErrorSchema. */
export const savedResponse = <T extends z.ZodTypeAny>(stock: T) =>
  z.object({ success: z.literal(true), stock, errorMessage: z.null() });

/** `{ success: true }`: the answer of a call that returns nothing else (sign out). */
export const SuccessSchema = z.object({ success: z.literal(true) });
export type SuccessDto = z.infer<typeof SuccessSchema>;

/**
 * A yes/no query parameter as spec section 7's clients send it (`?sendOverride`, `?includeBillable`): absent
 * is false; 'false', '0', 'no' or 'off' in any case (an ASP.NET-style client sends 'False') is false;
 * anything else, the bare `?flag` included, is true.
 */
export const queryFlag = () =>
  z
    .string()
    .optional()
    .transform((v) => v !== undefined && isTrueFlag(v));

/** A flag's value as a query or form sends it: false for 'false', '0', 'no', 'off' in any case, else true. */
export const isTrueFlag = (value: string): boolean =>
  !['false', '0', 'no', 'off'].includes(value.trim().toLowerCase());

/**
 * An object as a client written from the spec sends it: ASP.NET model binding reads property names in any
 * case (`Ticker`, `RepeatingInvoiceID`), so each key is read as the schema's key it equals ignoring case. A
 * key the schema does not name, or a second spelling of a key already given, stays as sent, for a strict
 * schema to refuse naming it. Typed by the schema's own input: what this portal's callers send.
 */
export function keysInAnyCase<T extends z.AnyZodObject>(schema: T) {
  const shape = schema.shape as Record<string, unknown>;
  const byLowerCase = new Map(Object.keys(shape).map((key) => [key.toLowerCase(), key]));
  const own = (key: string) => Object.prototype.hasOwnProperty.call(shape, key);
  return z.preprocess((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const entries = Object.entries(value);
    // Exact names first, so `ticker` beside `Ticker` keeps its value and `Ticker` is the one refused.
    const taken = new Set(entries.filter(([key]) => own(key)).map(([key]) => key));
    return Object.fromEntries(
      entries.map(([key, v]) => {
        if (own(key)) return [key, v];
        const named = byLowerCase.get(key.toLowerCase());
        if (!named || taken.has(named)) return [key, v];
        taken.add(named);
        return [named, v];
      }),
    );
  }, schema) as unknown as z.ZodEffects<T, z.output<T>, z.input<T>>;
}

/** GET /health of the gateway. */
/**
 * `ok` (200) while every service answers, `slow` ones included; `degraded` (503) when one is `down`. A service
 * is `slow` when its ping took longer than the gateway's HEALTH_TIMEOUT_MS but it did answer within
 * HEALTH_DOWN_TIMEOUT_MS: busy, not gone.
 */
export const GatewayHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(
    z.string(),
    z.object({
      status: z.enum(['up', 'slow', 'down']),
      latencyMs: z.number().optional(),
      error: z.string().optional(),
    }),
  ),
});
export type GatewayHealthDto = z.infer<typeof GatewayHealthSchema>;

/**
 * The body of a POST that takes none (it acts on its path and query). Routes still name one, so the OpenAPI
 * document says so instead of leaving the body undescribed. Nothing or `{}`: any field is a 400 naming it
 * (issue 21), so a client never takes a field it sent for one that did something.
 */
export const NoBodySchema = z.object({}).strict().describe('No body is needed: send nothing or {}');

/** The 2xx answer of a route that streams a file (its entry's `produces` says the media type). */
export const FileResponseSchema = z.unknown().describe('the file');
