import { AppError } from '@irp/platform';
import { checkRoles, toSessionUser } from './user-rules';
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
});
