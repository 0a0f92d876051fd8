import { describe, expect, it } from 'vitest';
import { formatCents, formatCentsPlusGst, formatDollars, formatPricePlusGst } from './money';
import { safeHttpUrl, websiteHref } from './website';

describe('money', () => {
  it('shows dollars with cents and thousands separators', () => {
    expect(formatDollars(1980)).toBe('$1,980.00');
    expect(formatCents(198050)).toBe('$1,980.50');
    expect(formatCents(0)).toBe('$0.00');
  });

  it('shows nothing for a missing amount', () => {
    expect(formatDollars(null)).toBe('');
    expect(formatCents(undefined)).toBe('');
  });
});

describe('prices plus GST', () => {
  it('shows AUD without decimals and says + GST', () => {
    expect(formatPricePlusGst(1800)).toBe('$1,800 + GST');
    expect(formatCentsPlusGst(180049)).toBe('$1,800 + GST');
    expect(formatCentsPlusGst(180050)).toBe('$1,801 + GST');
    expect(formatCentsPlusGst(0)).toBe('$0 + GST');
  });

  it('shows nothing for a missing amount', () => {
    expect(formatPricePlusGst(null)).toBe('');
    expect(formatCentsPlusGst(undefined)).toBe('');
  });
});

describe('websiteHref', () => {
  it('prefixes http:// when the scheme is missing', () => {
    expect(websiteHref('example.com')).toBe('http://example.com');
    expect(websiteHref(' https://example.com/ir ')).toBe('https://example.com/ir');
    expect(websiteHref('')).toBe('');
  });

  it('never yields a script link', () => {
    expect(websiteHref('javascript://%0aalert(1)')).toBe('http://javascript://%0aalert(1)');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('https://a.com/x')).toBe('https://a.com/x');
  });
});
