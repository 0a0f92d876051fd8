import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies';

describe('readCookie', () => {
  it('finds a cookie among others and decodes it', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=ab%2Fc%3D; b=2')).toBe('ab/c=');
  });

  it('does not match on a name suffix', () => {
    expect(readCookie('TOKEN', 'XSRF-TOKEN=abc')).toBeUndefined();
  });

  it('keeps a value that is not valid URI encoding', () => {
    expect(readCookie('t', 't=%E0%A4%A')).toBe('%E0%A4%A');
  });

  it('returns undefined when there are no cookies', () => {
    expect(readCookie('XSRF-TOKEN', '')).toBeUndefined();
  });
});
