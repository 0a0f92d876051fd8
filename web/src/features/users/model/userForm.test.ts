import type { UserAuditEntryDto, UserDetailDto } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import {
  addRow,
  auditChanges,
  deleteRow,
  formOf,
  ROW_EXISTS,
  saveBodyOf,
  SELECT_A_COMPANY,
  toggleRole,
} from './userForm';

const BHP = '11111111-1111-4111-8111-111111111111';
const CSL = '22222222-2222-4222-8222-222222222222';

const user: UserDetailDto = {
  id: '33333333-3333-4333-8333-333333333333',
  username: 'kate',
  roles: ['EditUsers'],
  permissions: [
    {
      stockId: BHP,
      combinedTicker: 'BHP:ASX',
      companyName: 'BHP Group',
      archived: false,
      roles: ['ReplyToComment', 'ViewConfig'],
    },
  ],
};

describe('the user form', () => {
  it("starts from the loaded user with a blank password and the rows' roles in proto's order", () => {
    expect(formOf(user)).toEqual({
      username: 'kate',
      password: '',
      staffRoles: ['EditUsers'],
      rows: [
        {
          stockId: BHP,
          combinedTicker: 'BHP:ASX',
          companyName: 'BHP Group',
          archived: false,
          roles: ['ViewConfig', 'ReplyToComment'],
        },
      ],
    });
  });

  it("Add Row: 'Please select a Company' without a choice, 'Row with this Company already exists' twice", () => {
    const { rows } = formOf(user);
    expect(addRow(rows, null)).toEqual({ alert: SELECT_A_COMPANY });
    expect(SELECT_A_COMPANY).toBe('Please select a Company');
    const bhp = { stockId: BHP, combinedTicker: 'BHP:ASX', companyName: 'BHP Group', archived: false };
    expect(addRow(rows, bhp)).toEqual({ alert: ROW_EXISTS });
    expect(ROW_EXISTS).toBe('Row with this Company already exists');
    const csl = { stockId: CSL, combinedTicker: 'CSL:ASX', companyName: 'CSL Limited', archived: false };
    const added = addRow(rows, csl);
    expect(added).toEqual({ rows: [...rows, { ...csl, roles: [] }] });
  });

  it('ticks, unticks and deletes per row, leaving the other rows alone', () => {
    const csl = { stockId: CSL, combinedTicker: 'CSL:ASX', companyName: 'CSL', archived: false, roles: [] };
    const rows = [...formOf(user).rows, csl];
    const ticked = toggleRole(rows, CSL, 'Invoicing', true);
    expect(ticked[1]?.roles).toEqual(['Invoicing']);
    expect(ticked[0]).toBe(rows[0]);
    expect(toggleRole(ticked, BHP, 'ViewConfig', false)[0]?.roles).toEqual(['ReplyToComment']);
    expect(deleteRow(ticked, BHP).map((r) => r.stockId)).toEqual([CSL]);
  });

  it('sends rows by stock id, the password as typed, and staff roles only from an Admin', () => {
    const form = { ...formOf(user), username: ' kate ', password: '' };
    const permissions = [
      { stockId: BHP, combinedTicker: 'BHP:ASX', roles: ['ViewConfig', 'ReplyToComment'] },
    ];
    expect(saveBodyOf(form, { sendStaffRoles: false })).toEqual({
      username: 'kate',
      password: '',
      permissions,
    });
    expect(saveBodyOf(form, { sendStaffRoles: true })).toEqual({
      username: 'kate',
      password: '',
      permissions,
      roles: ['EditUsers'],
    });
  });
});

describe('audit lines', () => {
  const entry = (over: Partial<UserAuditEntryDto>): UserAuditEntryDto => ({
    at: '2026-11-27T01:00:00.000Z',
    actorId: null,
    actorUsername: 'admin',
    usernameBefore: 'kate',
    usernameAfter: 'kate',
    rolesBefore: [],
    rolesAfter: [],
    stockRolesBefore: {},
    stockRolesAfter: {},
    passwordChanged: false,
    ...over,
  });
  const tickerOf = (id: string) => ({ [BHP]: 'BHP:ASX', [CSL]: 'CSL:ASX' })[id] ?? id;

  it('says what was created, added and removed, per stock by ticker, and a password change', () => {
    expect(
      auditChanges(
        entry({
          rolesBefore: ['RunReports'],
          rolesAfter: ['EditUsers'],
          stockRolesBefore: { [CSL]: ['Invoicing'], [BHP]: ['ViewConfig'] },
          stockRolesAfter: { [BHP]: ['ReplyToComment', 'ViewConfig', 'Invoicing'], gone: ['ViewConfig'] },
          passwordChanged: true,
        }),
        tickerOf,
      ),
    ).toEqual([
      'Staff roles: +Edit Users, −Run Reports',
      'BHP:ASX: +Invoicing, +Comments',
      'CSL:ASX: −Invoicing',
      'gone: +Config',
      'Password changed',
    ]);
    expect(
      auditChanges(entry({ usernameBefore: null, usernameAfter: 'kate', passwordChanged: true }), tickerOf),
    ).toEqual(['Created as kate', 'Password set']);
  });
});
