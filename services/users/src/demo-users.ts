import { DEMO_STOCK_IDS, GlobalRole, StockRole } from '@irp/proto';
import { UserInput } from './users/upsert-user';

/** Demo sign-ins for `make up` and the browser tests; never created in production. */
export const DEMO_USERS: ReadonlyArray<UserInput & { password: string; description: string }> = [
  {
    username: 'admin',
    password: 'Admin!2026',
    roles: [GlobalRole.Admin, GlobalRole.EditUsers, GlobalRole.InvoiceTotal],
    stockRoles: {},
    description: 'Admin (all screens)',
  },
  {
    username: 'reports',
    password: 'Reports!2026',
    roles: [GlobalRole.RunReports],
    stockRoles: {},
    description: 'RunReports',
  },
  {
    username: 'useradmin',
    password: 'UserAdmin!2026',
    roles: [GlobalRole.EditUsers],
    stockRoles: {},
    description: 'EditUsers only',
  },
  {
    username: 'client',
    password: 'Client!2026',
    roles: [],
    stockRoles: {
      [DEMO_STOCK_IDS[0]]: [
        StockRole.ViewConfig,
        StockRole.EditAnnouncements,
        StockRole.EditMailchimp,
        StockRole.ReplyToComment,
        StockRole.Invoicing,
      ],
      [DEMO_STOCK_IDS[1]]: [StockRole.ViewConfig],
    },
    description: 'client with per-stock roles on two stocks',
  },
  {
    username: 'announcer',
    password: 'Announcer!2026',
    roles: [],
    // A client without ViewConfig: no Config tab, and the API refuses its config saves.
    stockRoles: { [DEMO_STOCK_IDS[0]]: [StockRole.EditAnnouncements, StockRole.EditMailchimp] },
    description: 'client with announcement and email-marketing roles on one stock, no ViewConfig',
  },
];
