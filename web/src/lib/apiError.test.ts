import { describe, expect, it } from 'vitest';
import { errorMessageOf, errorStatusOf } from './apiError';

describe('errorMessageOf', () => {
  it("prefers the gateway's errorMessage", () => {
    expect(errorMessageOf({ status: 400, data: { errorMessage: 'Please define a valid ticker' } })).toBe(
      'Please define a valid ticker',
    );
  });

  it('falls back to the fetch error, the thrown message, then the status', () => {
    expect(errorMessageOf({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'TypeError: Failed to fetch',
    );
    expect(errorMessageOf(new Error('boom'))).toBe('boom');
    expect(errorMessageOf({ status: 502, data: '<html>' })).toBe('The server answered 502');
    expect(errorMessageOf(undefined)).toBe('Something went wrong');
  });

  it('reads the HTTP status', () => {
    expect(errorStatusOf({ status: 403, data: {} })).toBe(403);
    expect(errorStatusOf({ status: 'FETCH_ERROR', error: 'x' })).toBeUndefined();
  });
});
