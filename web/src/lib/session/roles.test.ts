import type { SessionUserDto } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import { canEditUsers, grantedRoles, hasStockRole, isAdmin, isStaffUser } from './roles';

function user(roles: Record<string, boolean>, stockRoles: Record<string, string[]> = {}): SessionUserDto {
  return { username: 'u', user: { id: '1', username: 'u' }, roles, stockRoles };
}

describe('roles', () => {
  it('lists only roles whose flag is true', () => {
    expect(grantedRoles(user({ Admin: true, EditUsers: false }))).toEqual(['Admin']);
    expect(grantedRoles(null)).toEqual([]);
  });

  it('treats admins and report-runners as staff', () => {
    expect(isStaffUser(user({ Admin: true }))).toBe(true);
    expect(isStaffUser(user({ RunReports: true }))).toBe(true);
    expect(isStaffUser(user({ EditUsers: true, InvoiceTotal: true }))).toBe(false);
    expect(isStaffUser(user({ RunReports: false }))).toBe(false);
  });

  it('lets EditUsers holders and admins edit users', () => {
    expect(canEditUsers(user({ EditUsers: true }))).toBe(true);
    expect(canEditUsers(user({ Admin: true }))).toBe(true);
    expect(canEditUsers(user({ RunReports: true }))).toBe(false);
    expect(canEditUsers(null)).toBe(false);
  });

  it('checks per-stock roles by stock id, and Admin always passes', () => {
    const client = user({}, { s1: ['ViewConfig'] });
    expect(hasStockRole(client, 's1', 'ViewConfig')).toBe(true);
    expect(hasStockRole(client, 's1', 'ReplyToComment')).toBe(false);
    expect(hasStockRole(client, 's2', 'ViewConfig')).toBe(false);
    expect(hasStockRole(user({ Admin: true }), 's2', 'Invoicing')).toBe(true);
    expect(isAdmin(client)).toBe(false);
  });
});
