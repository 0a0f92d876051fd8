import { describe, expect, it } from 'vitest';
import { changedFields, formValuesOf, invalidField, numberOf, saveBodyOf } from './marketForm';
import { QUOTE } from '../test/fixtures';

describe('market form', () => {
  it('shows each number as text and an empty field for none', () => {
    const values = formValuesOf(QUOTE);
    expect(values.ask).toBe('45.12');
    expect(values.volume).toBe('1234567');
    expect(values.marketCap).toBe('');
    expect(formValuesOf(null).last).toBe('');
  });

  it('converts typed text to numbers: separators and a dollar sign go, blank is null, words are not numbers', () => {
    expect(numberOf('1,234.5')).toBe(1234.5);
    expect(numberOf(' $0.015 ')).toBe(0.015);
    expect(numberOf('-0.23')).toBe(-0.23);
    expect(numberOf('')).toBeNull();
    expect(numberOf('   ')).toBeNull();
    expect(numberOf('abc')).toBeNaN();
    expect(numberOf('1.2.3')).toBeNaN();
  });

  it('sends only the fields whose number changed, as numbers, with null clearing one', () => {
    const saved = formValuesOf(QUOTE);
    const values = { ...saved, volume: '1,234,567', ask: '46', bid: '', marketCap: '2,300,000,000' };
    const fields = changedFields(saved, values);
    expect(fields).toEqual(['ask', 'bid', 'marketCap']);
    expect(saveBodyOf(values, fields)).toEqual({ ask: 46, bid: null, marketCap: 2_300_000_000 });
    expect(changedFields(saved, saved)).toEqual([]);
  });

  it('names the first field that is not a number', () => {
    const values = { ...formValuesOf(QUOTE), high: 'lots', low: 'x' };
    expect(invalidField(values)).toBe('High must be a number');
    expect(invalidField(formValuesOf(QUOTE))).toBeNull();
  });
});
