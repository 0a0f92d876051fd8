/** SQL fragments the invoicing repositories share, so each rule is written once. */

/**
 * The reference rule: an invoice or a repeating invoice belongs to the stock whose accounting reference
 * equals its Reference, case and surrounding blanks aside (the stocks' index on
 * lower(btrim(accounting_reference)) serves it). `a` and `b` are column expressions.
 */
export const sameReference = (a: string, b: string) => `lower(btrim(${a})) = lower(btrim(${b}))`;

/**
 * A DATE column as the YYYY-MM-DD text its entity property holds: the driver alone would read it as a Date
 * at local midnight.
 */
export const dayText = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

/** A bigint of cents as the number its entity property holds (the driver reads bigint as text). */
export const cents = (column: string) => `${column}::float8`;
