import { combinedTickerOf, parseCombinedTicker, type Stock } from '@irp/proto';
import { AppError } from '../errors';

/**
 * The row a stock becomes: each of the entity's properties taken from the Stock of the same name, `updatedAt`
 * as a Date (it orders the events). A column that is no Stock field is refused (a typo would otherwise
 * keep null forever), unless `fromStock` gives it.
 */
export function rowFromStock(
  stock: Stock,
  properties: readonly string[],
  fromStock?: (stock: Stock) => Record<string, unknown>,
): Record<string, unknown> {
  const given = fromStock?.(stock) ?? {};
  const row: Record<string, unknown> = {};
  for (const property of properties) {
    if (property in given) row[property] = given[property];
    else if (property === 'updatedAt') row[property] = new Date(stock.updatedAt);
    else if (property in stock) row[property] = stock[property as keyof Stock];
    else throw new Error(`stock projection: "${property}" is not a field of Stock; map it in fromStock`);
  }
  return row;
}

/**
 * One statement, so concurrent applies of one stock (an event and the periodic re-list) cannot interleave:
 * insert the stock, or overwrite the stored row when the stock is newer (`updated_at`), or is the same
 * version with different values (a row changed by hand, repaired by the next re-list; a redelivered event
 * changes nothing). An older stock never overwrites a newer row. `RETURNING id` says whether it changed.
 * Parameters are `$1..$n` in the order of `columns`, which must include `id` and `updated_at`.
 */
export function upsertStatement(table: string, columns: readonly string[]): string {
  for (const required of ['id', 'updated_at'])
    if (!columns.includes(required)) throw new Error(`stock projection: ${table} needs a ${required} column`);
  const updated = columns.filter((c) => c !== 'id');
  const stored = (c: string) => `${table}.${c}`;
  return [
    `INSERT INTO ${table} (${columns.join(', ')})`,
    `VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    `ON CONFLICT (id) DO UPDATE SET ${updated.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
    `WHERE ${stored('updated_at')} < EXCLUDED.updated_at`,
    `OR (${stored('updated_at')} = EXCLUDED.updated_at`,
    `AND (${updated.map(stored).join(', ')}) IS DISTINCT FROM (${updated.map((c) => `EXCLUDED.${c}`).join(', ')}))`,
    `RETURNING id`,
  ].join('\n');
}

/** `bhp`, `BHP` and `BHP:asx` all name BHP:ASX (a bare ticker means ASX); BAD_REQUEST when no ticker. */
export function normalisedCombinedTicker(text: string): string {
  const ref = parseCombinedTicker(text);
  if (!ref) throw new AppError('BAD_REQUEST', `${text} is not a ticker:exchange`);
  return combinedTickerOf(ref.ticker, ref.exchange);
}
