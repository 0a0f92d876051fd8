import { describe, expect, it } from 'vitest';
import { navItemsFor, shouldShowNav } from './nav';

describe('shouldShowNav', () => {
  it.each(['/', '/stocks/ABC:ASX', '/users', '/reports', '/no-such-page', '/login-help'])(
    'shows on %s when signed in',
    (pathname) => expect(shouldShowNav(pathname, true)).toBe(true),
  );

  it.each([
    '/report/abc',
    '/report',
    '/new-order',
    '/new-order/12',
    '/login',
    '/login/',
    '/LOGIN',
    '/Report/x',
  ])('hides on %s even when signed in', (pathname) => expect(shouldShowNav(pathname, true)).toBe(false));

  it('hides everywhere when signed out', () => {
    expect(shouldShowNav('/', false)).toBe(false);
    expect(shouldShowNav('/users', false)).toBe(false);
  });
});

describe('navItemsFor', () => {
  const labels = (roles: Record<string, boolean>) => navItemsFor({ roles }).map((item) => item.label);

  it('gives admins every item', () => {
    expect(labels({ Admin: true, EditUsers: true, InvoiceTotal: true })).toEqual([
      'Add New Stock',
      'System Settings',
      'Accounting Integration',
      'Orders',
      'Users',
    ]);
    expect(labels({ Admin: true })).toContain('Users');
  });

  it('gives EditUsers holders only Users', () => {
    expect(labels({ EditUsers: true })).toEqual(['Users']);
  });

  it('gives report-runners and clients nothing', () => {
    expect(labels({ RunReports: true })).toEqual([]);
    expect(labels({})).toEqual([]);
    expect(labels({ Admin: false, EditUsers: false })).toEqual([]);
  });

  it('links to the routes of spec section 2', () => {
    expect(navItemsFor({ roles: { Admin: true } }).map((item) => item.to)).toEqual([
      '/create',
      '/system-settings',
      '/accounting-page',
      '/orders',
      '/users',
    ]);
  });
});
