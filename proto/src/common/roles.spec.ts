import { SessionUser } from './session';
import {
  canEditUsers,
  grantedRoles,
  hasGlobalRole,
  hasRole,
  hasStockRole,
  isAdmin,
  isStaff,
  stockRolesOf,
  STOCK_ROLES,
} from './roles';

const STOCK = '00000000-0000-4000-8000-00000000000a';

/** The services' form: roles as a list. */
const sessionUser = (roles: string[], stockRoles: Record<string, string[]> = {}): SessionUser => ({
  id: '00000000-0000-4000-8000-000000000099',
  username: 'u',
  roles,
  stockRoles,
});

/** The web app's form: roles keyed by name, true when held. */
const dto = (roles: Record<string, boolean>, stockRoles: Record<string, string[]> = {}) => ({
  username: 'u',
  user: { id: '1', username: 'u' },
  roles,
  stockRoles,
});

describe('role predicates over both forms of a user', () => {
  it('read the same roles from a list and from flags (false flags are not held)', () => {
    expect(grantedRoles(sessionUser(['Admin']))).toEqual(['Admin']);
    expect(grantedRoles(dto({ Admin: true, EditUsers: false }))).toEqual(['Admin']);
    expect(grantedRoles(null)).toEqual([]);
    expect(isAdmin(dto({ Admin: false }))).toBe(false);
    expect(isAdmin(sessionUser(['Admin']))).toBe(isAdmin(dto({ Admin: true })));
  });

  it('hasRole is the role itself; hasGlobalRole lets Admin pass', () => {
    expect(hasRole(sessionUser(['Admin']), 'InvoiceTotal')).toBe(false);
    expect(hasGlobalRole(sessionUser(['Admin']), ['InvoiceTotal'])).toBe(true);
    expect(hasGlobalRole(dto({ EditUsers: true }), ['EditUsers', 'RunReports'])).toBe(true);
    expect(hasGlobalRole(dto({ EditUsers: true }), ['RunReports'])).toBe(false);
  });

  it('per-stock roles by stock id, one role or any of several; Admin passes all', () => {
    for (const user of [sessionUser([], { [STOCK]: ['ViewConfig'] }), dto({}, { [STOCK]: ['ViewConfig'] })]) {
      expect(hasStockRole(user, STOCK, 'ViewConfig')).toBe(true);
      expect(hasStockRole(user, STOCK, ['Invoicing', 'ViewConfig'])).toBe(true);
      expect(hasStockRole(user, STOCK, 'ReplyToComment')).toBe(false);
      expect(hasStockRole(user, 'other', 'ViewConfig')).toBe(false);
    }
    expect(hasStockRole(dto({ Admin: true }), STOCK, 'ReplyToComment')).toBe(true);
    expect(hasStockRole(undefined, STOCK, 'ViewConfig')).toBe(false);
    expect(stockRolesOf(sessionUser(['Admin']), STOCK)).toEqual([...STOCK_ROLES]);
    expect(stockRolesOf(dto({}, { [STOCK]: ['Invoicing'] }), STOCK)).toEqual(['Invoicing']);
  });

  it('staff are admins and report-runners; EditUsers holders and admins edit users', () => {
    expect(isStaff(sessionUser(['RunReports']))).toBe(true);
    expect(isStaff(dto({ Admin: true }))).toBe(true);
    expect(isStaff(dto({ EditUsers: true, InvoiceTotal: true, RunReports: false }))).toBe(false);
    expect(canEditUsers(dto({ EditUsers: true }))).toBe(true);
    expect(canEditUsers(sessionUser(['Admin']))).toBe(true);
    expect(canEditUsers(sessionUser(['RunReports']))).toBe(false);
  });
});
