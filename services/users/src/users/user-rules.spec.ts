import { AppError } from '@irp/platform';
import { rolesNeedingSecondFactor } from '../config';
import { checkRoles, sessionUserOf, toSessionUser } from './user-rules';
import { UserEntity } from './user.entity';

describe('users rules', () => {
  it('keeps only stocks with roles and sorts roles in the session user', () => {
    const u = Object.assign(new UserEntity(), {
      id: 'id-1',
      username: 'x',
      roles: ['InvoiceTotal', 'Admin'],
      stockRoles: [
        { stockId: 's1', roles: ['ViewConfig', 'Invoicing'] },
        { stockId: 's2', roles: [] },
      ],
    });
    expect(toSessionUser(u)).toEqual({
      id: 'id-1',
      username: 'x',
      roles: ['Admin', 'InvoiceTotal'],
      stockRoles: { s1: ['Invoicing', 'ViewConfig'] },
    });
  });
  it('accepts the spec role names and refuses others', () => {
    expect(() =>
      checkRoles({
        roles: ['Admin', 'RunReports', 'InvoiceTotal', 'EditUsers'],
        stockRoles: { s: ['ReplyToComment', 'SendMailchimp'] },
      }),
    ).not.toThrow();
    expect(() => checkRoles({ roles: ['root'], stockRoles: {} })).toThrow(AppError);
    expect(() => checkRoles({ roles: [], stockRoles: { s: ['Admin'] } })).toThrow(
      'Unknown stock role: Admin',
    );
  });

  it('asks a user whose roles need a second factor for one until they have it (issue 34)', () => {
    const staff = (roles: string[], hasSecondFactor: boolean) =>
      Object.assign(new UserEntity(), { id: 'id-2', username: 'y', roles, stockRoles: [], hasSecondFactor });
    const required = rolesNeedingSecondFactor({ MFA_REQUIRED_ROLES: undefined, NODE_ENV: 'production' });
    expect(required).toEqual(['Admin', 'EditUsers']);
    expect(sessionUserOf(staff(['EditUsers'], false), required).mustAddSecondFactor).toBe(true);
    expect(sessionUserOf(staff(['EditUsers'], true), required).mustAddSecondFactor).toBeUndefined();
    expect(sessionUserOf(staff(['RunReports'], false), required).mustAddSecondFactor).toBeUndefined();
    expect(rolesNeedingSecondFactor({ MFA_REQUIRED_ROLES: undefined, NODE_ENV: 'development' })).toEqual([]);
    expect(rolesNeedingSecondFactor({ MFA_REQUIRED_ROLES: 'none', NODE_ENV: 'production' })).toEqual([]);
    expect(rolesNeedingSecondFactor({ MFA_REQUIRED_ROLES: 'RunReports, Admin', NODE_ENV: 'test' })).toEqual([
      'RunReports',
      'Admin',
    ]);
  });
});
