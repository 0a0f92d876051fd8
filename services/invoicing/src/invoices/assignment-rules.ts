import { RequestOf, Topics } from '@irp/proto';
import type { AssignmentChoice } from './assignments.repository';

/**
 * Pure rules of staff's choices: which invoices a stock has by hand (the Invoices tab's save), which stock
 * each invoice on the accounting page goes to, and how unknown ids and tickers are refused.
 */

/** Saving the Invoices tab: a repeating invoice id lower-cased, null (its reference's), or left out (kept). */
export const chosenRepeatingId = (id: string | null | undefined): string | null | undefined =>
  id === undefined ? undefined : (id?.toLowerCase() ?? null);

/** Invoice ids as stored: lower-cased, each once. */
export const distinctInvoiceIds = (ids: string[]): string[] => [
  ...new Set(ids.map((id) => id.toLowerCase())),
];

/** A ticker as the accounting page's choices name a stock (ticker:exchange, upper-cased). */
const choiceTicker = (ticker: string) => ticker.trim().toUpperCase();

/** One of staff's choices on the accounting page, as the request carries it. */
export type AssignmentItem = RequestOf<typeof Topics.InvoicingAssign>['items'][number];

/** The stocks the accounting page's choices name, each once. */
export const choiceTickers = (items: AssignmentItem[]): string[] => [
  ...new Set(items.flatMap((i) => (i.ticker ? [choiceTicker(i.ticker)] : []))),
];

/**
 * Staff's choices as stored: a ticker wins over `ignore`; neither removes the choice. `stockIds` (by
 * upper-cased ticker) holds every ticker named: unknown ones were refused before.
 */
export const assignmentChoices = (
  items: AssignmentItem[],
  stockIds: Map<string, string>,
): AssignmentChoice[] =>
  items.map((i) => ({
    invoiceId: i.invoiceId.toLowerCase(),
    stockId: i.ticker ? stockIds.get(choiceTicker(i.ticker))! : null,
    ignored: i.ignore === true && !i.ticker,
  }));

/** The ids of `wanted` that `known` lacks, in the order asked. */
export const missing = (wanted: string[], known: { has(id: string): boolean }): string[] =>
  wanted.filter((id) => !known.has(id));

/** Refusing unknown invoice ids: the first five are named. */
export const unknownInvoicesMessage = (ids: string[]): string =>
  `No invoice has the id ${ids.slice(0, 5).join(', ')}`;

/** Refusing unknown tickers: the first five are named. */
export const unknownTickersMessage = (tickers: string[]): string =>
  `No stock has the ticker ${tickers.slice(0, 5).join(', ')}`;
