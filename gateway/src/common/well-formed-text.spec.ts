import { malformedText } from './well-formed-text';

describe('malformedText', () => {
  it('passes text, emoji, RTL overrides and combining marks', () => {
    expect(
      malformedText({ a: 'BHP', b: ['\u{1F600} \u202eevil\u202c e\u0301'], c: 1, d: null }, ''),
    ).toBeUndefined();
  });

  it('names the field of a NUL character, nested or not', () => {
    expect(malformedText({ headline: 'a\u0000b' }, '')).toBe('headline: must not contain a NUL character');
    expect(malformedText({ items: [{ ticker: 'x\u0000' }] }, '')).toBe(
      'items.0.ticker: must not contain a NUL character',
    );
    expect(malformedText('BHP\u0000', 'combinedTicker')).toBe(
      'combinedTicker: must not contain a NUL character',
    );
  });

  it('names a lone surrogate, high or low, but not a pair', () => {
    expect(malformedText({ name: 'a\ud800' }, '')).toBe('name: is not valid Unicode text (a lone surrogate)');
    expect(malformedText({ name: '\udc00a' }, '')).toBe('name: is not valid Unicode text (a lone surrogate)');
    expect(malformedText({ name: '\ud83d\ude00' }, '')).toBeUndefined();
  });

  it('checks keys too', () => {
    expect(malformedText({ 'a\u0000': 1 }, '')).toBe('a field name: must not contain a NUL character');
  });

  it('walks 100,000 levels of nesting without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(malformedText({ a: deep }, '')).toMatch(/^a\.0\.0.*: must not contain a NUL character$/);
  });
});
