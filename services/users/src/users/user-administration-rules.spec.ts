import { actor } from '@irp/proto/testing';
import { checkStaffChange, givenPassword } from './user-administration-rules';

describe('user administration rules', () => {
  const admin = actor({ username: 'boss', roles: ['Admin'] });
  const editor = actor({ username: 'clerk', roles: ['EditUsers'] });

  it('lets an Admin set and remove staff roles', () => {
    expect(() => checkStaffChange(admin, [], ['RunReports'])).not.toThrow();
    expect(() => checkStaffChange(admin, ['Admin'], [])).not.toThrow();
  });

  it('lets EditUsers alone change a client user whose staff roles stay none', () => {
    expect(() => checkStaffChange(editor, [], [])).not.toThrow();
  });

  it('refuses EditUsers alone setting a staff role or touching a staff user', () => {
    expect(() => checkStaffChange(editor, [], ['InvoiceTotal'])).toThrow(
      'Only an Admin can set the staff roles',
    );
    expect(() => checkStaffChange(editor, ['RunReports'], ['RunReports'])).toThrow(
      'Only an Admin can change a user who holds a staff role',
    );
  });

  it('treats a blank password as no password', () => {
    expect(givenPassword('')).toBeUndefined();
    expect(givenPassword('   ')).toBeUndefined();
    expect(givenPassword(null)).toBeUndefined();
    expect(givenPassword(' x ')).toBe(' x ');
  });
});
