import {
  assignmentChoices,
  choiceTickers,
  chosenRepeatingId,
  distinctInvoiceIds,
  missing,
  unknownInvoicesMessage,
} from './assignment-rules';

describe('assignment rules', () => {
  it("reads the Invoices tab's save: a repeating id lower-cased, null or left out; invoice ids once each", () => {
    expect(chosenRepeatingId('R-1')).toBe('r-1');
    expect(chosenRepeatingId(null)).toBeNull();
    expect(chosenRepeatingId(undefined)).toBeUndefined();
    expect(distinctInvoiceIds(['A', 'a', 'B'])).toEqual(['a', 'b']);
    expect(missing(['a', 'b', 'c'], new Set(['b']))).toEqual(['a', 'c']);
  });

  it("stores staff's choices: a ticker wins over ignore, neither removes the choice", () => {
    const items = [
      { invoiceId: 'A', ticker: ' bhp:asx ' },
      { invoiceId: 'B', ignore: true },
      { invoiceId: 'C', ignore: true, ticker: 'BHP:ASX' },
      { invoiceId: 'D' },
    ];
    expect(choiceTickers(items)).toEqual(['BHP:ASX']);
    expect(assignmentChoices(items, new Map([['BHP:ASX', 's-1']]))).toEqual([
      { invoiceId: 'a', stockId: 's-1', ignored: false },
      { invoiceId: 'b', stockId: null, ignored: true },
      { invoiceId: 'c', stockId: 's-1', ignored: false },
      { invoiceId: 'd', stockId: null, ignored: false },
    ]);
  });

  it('names at most five unknown ids', () => {
    expect(unknownInvoicesMessage(['a', 'b', 'c', 'd', 'e', 'f'])).toBe(
      'No invoice has the id a, b, c, d, e',
    );
  });
});
