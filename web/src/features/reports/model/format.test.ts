import { describe, expect, it } from 'vitest';
import { formatChangePercent, formatCompactDollars, formatCount, formatPercent, formatPrice } from './format';

describe('report number formats', () => {
  it('writes counts with thousands separators', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-4210000)).toBe('-4,210,000');
    expect(formatCount(null)).toBe('');
  });

  it('writes percents to 2 decimals, changes with their sign', () => {
    expect(formatPercent(12.5)).toBe('12.50%');
    expect(formatPercent(3.14159)).toBe('3.14%');
    expect(formatChangePercent(3.6)).toBe('+3.60%');
    expect(formatChangePercent(-2.655)).toBe('-2.66%');
    expect(formatChangePercent(0)).toBe('0.00%');
    expect(formatPercent(undefined)).toBe('');
  });

  it('writes prices in dollars with up to 4 decimals (ASX prices go below a cent)', () => {
    expect(formatPrice(43.8101)).toBe('$43.8101');
    expect(formatPrice(44.6)).toBe('$44.60');
    expect(formatPrice(0.0015)).toBe('$0.0015');
    expect(formatPrice(1234.5)).toBe('$1,234.50');
    expect(formatPrice(null)).toBe('');
  });

  it('writes dollars in short for chart axes', () => {
    expect(formatCompactDollars(12_500_000)).toBe('$12.5M');
    expect(formatCompactDollars(800_000)).toBe('$800K');
    expect(formatCompactDollars(0)).toBe('$0');
  });
});
