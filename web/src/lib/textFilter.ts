/**
 * The text filter of a long list (staff dashboard, referers, users): a row matches when one of its fields
 * contains the typed text, ignoring case. Each row's fields are lower-cased once, into one search text kept
 * while the list holds that row object, so a keystroke over 20,000 rows is one `includes` per row rather than
 * a lower-casing per field, and filters in the same frame as the input's echo (no deferred second render).
 * The fields are joined by line breaks, which the input cannot hold, so a match never spans two fields.
 */
export function textFilter<T extends object>(
  fieldsOf: (row: T) => readonly string[],
): (rows: readonly T[], text: string, keep?: (row: T) => boolean) => T[] {
  const searchTexts = new WeakMap<T, string>();
  const searchTextOf = (row: T) => {
    let text = searchTexts.get(row);
    if (text === undefined) {
      text = fieldsOf(row).join('\n').toLowerCase();
      searchTexts.set(row, text);
    }
    return text;
  };
  return (rows, text, keep = () => true) => {
    const needle = text.trim().toLowerCase();
    if (needle.includes('\n')) return [];
    return rows.filter((row) => keep(row) && (!needle || searchTextOf(row).includes(needle)));
  };
}
