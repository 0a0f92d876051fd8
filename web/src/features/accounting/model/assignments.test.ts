import { describe, expect, it } from 'vitest';
import { assignmentItem, assignmentItems, IGNORE, initialChoice, UNSET } from './assignments';

describe('accounting page assignments', () => {
  it('starts each line from what the server holds', () => {
    expect(initialChoice({ ticker: null }, false)).toBe(UNSET);
    expect(initialChoice({ ticker: 'BHP:ASX' }, false)).toBe('BHP:ASX');
    expect(initialChoice({ ticker: null }, true)).toBe(IGNORE);
  });

  it('sends a ticker, ignore=true, or neither for the blank choice', () => {
    expect(assignmentItem('inv-1', 'WES:ASX')).toEqual({ invoiceId: 'inv-1', ticker: 'WES:ASX' });
    expect(assignmentItem('inv-1', IGNORE)).toEqual({ invoiceId: 'inv-1', ignore: true });
    expect(assignmentItem('inv-1', UNSET)).toEqual({ invoiceId: 'inv-1' });
  });

  it('sends only the choices that changed', () => {
    const initial = { a: UNSET, b: UNSET, c: IGNORE, d: 'BHP:ASX' };
    const choices = { a: 'WES:ASX', b: UNSET, c: UNSET, d: 'BHP:ASX' };
    expect(assignmentItems(choices, initial)).toEqual([
      { invoiceId: 'a', ticker: 'WES:ASX' },
      { invoiceId: 'c' },
    ]);
  });
});
