import { describe, expect, it } from 'vitest';
import { loginRedirectState, redirectTargetFrom } from './redirect';

describe('redirectTargetFrom', () => {
  it('returns path, search and hash of where the visitor came from', () => {
    const state = loginRedirectState({ pathname: '/stocks/ABC:ASX/Notes', search: '?x=1', hash: '#top' });
    expect(redirectTargetFrom(state)).toBe('/stocks/ABC:ASX/Notes?x=1#top');
  });

  it('defaults to home', () => {
    expect(redirectTargetFrom(undefined)).toBe('/');
    expect(redirectTargetFrom(null)).toBe('/');
    expect(redirectTargetFrom({ from: 'nope' })).toBe('/');
  });

  it('never leaves the site or loops back to /login', () => {
    expect(redirectTargetFrom({ from: { pathname: '//evil.example/x', search: '' } })).toBe('/');
    expect(redirectTargetFrom({ from: { pathname: 'https://evil.example', search: '' } })).toBe('/');
    expect(redirectTargetFrom({ from: { pathname: '/login', search: '?a' } })).toBe('/');
  });
});
