import {
  ClientSaveStockSchema,
  DashboardInvoiceDto,
  GlobalRole,
  LatestInitialPoll,
  STOCK_ROLES,
  StockRole,
  stockRolesOf,
} from '@irp/proto';
import { actor, stockFixture } from '@irp/proto/testing';
import { NO_CONTRIBUTION } from '../dashboard/dashboard-contributor';
import { toAdminStockRow, toClientStockDto, toReportRunnerStock, toStockSummary } from './stock-views';

const ID = '00000000-0000-4000-8000-00000000000a';
const stock = stockFixture({
  id: ID,
  companyName: 'ABC Mining',
  created: '2026-01-02T03:04:05.000Z',
  sendPriceSensitiveAnnouncements: true,
  confirmationEmail: 'a@example.com',
  moderatorEmail: 'm@example.com',
  contactEmail: 'c@example.com',
  billingDate: '2026-01-02T03:04:05.000Z',
  websiteUrl: 'abc.example.com',
  apiKey: 'secret-api-key',
  accountingReference: 'ACC-1 secret',
  announcementCommentTemplate: 'template',
  version: 3,
  updatedAt: '2026-01-03T00:00:00.000Z',
});
const user = (roles: string[], stockRoles: Record<string, string[]> = {}) =>
  actor({ username: 'u', roles, stockRoles });
const invoice: DashboardInvoiceDto = {
  invoiceId: 'inv-1',
  invoiceNumber: 'INV-0042',
  totalCents: 165000,
  date: '2026-01-05',
  status: 'PAID',
  unpaid: false,
  overdue: false,
  daysLate: 0,
};

describe('stock views', () => {
  it('gives report-runners only the summary fields', () => {
    expect(toStockSummary(stock)).toEqual({
      id: ID,
      ticker: 'ABC',
      exchange: 'ASX',
      combinedTicker: 'ABC:ASX',
      companyName: 'ABC Mining',
      created: '2026-01-02T03:04:05.000Z',
      websiteUrl: 'abc.example.com',
      archived: false,
    });
    const one = toReportRunnerStock(stock, 'running');
    expect(Object.keys(one).sort()).toEqual(
      [
        'archived',
        'combinedTicker',
        'companyName',
        'completedInitialPoll',
        'created',
        'exchange',
        'id',
        'ticker',
        'websiteUrl',
      ].sort(),
    );
    expect(JSON.stringify(one)).not.toContain('secret');
    expect(one.completedInitialPoll).toBe(false);
  });

  it('composes completedInitialPoll from pollAsx and the announcements service’s latest initial poll', () => {
    const polled = (latest: LatestInitialPoll) => toReportRunnerStock(stock, latest).completedInitialPoll;
    expect(polled('completed')).toBe(true);
    expect(polled('running')).toBe(false);
    expect(polled('failed')).toBe(false);
    // Polling just switched on: no run has started yet.
    expect(polled('none')).toBe(false);
    // The announcements service did not answer: Save is not held back.
    expect(polled('unknown')).toBe(true);
    // Polling off counts as complete, whatever an old run says.
    const off = stockFixture({ pollAsx: false });
    expect(toReportRunnerStock(off, 'running').completedInitialPoll).toBe(true);
    expect(toClientStockDto(off, [], NO_CONTRIBUTION, 'none').completedInitialPoll).toBe(true);
  });

  it('builds the admin row with the composed columns', () => {
    expect(toAdminStockRow(stock, { ...NO_CONTRIBUTION, emailMarketing: true, invoice })).toEqual({
      ...toStockSummary(stock),
      apiKey: 'secret-api-key',
      pollAsx: true,
      subscriptionExpired: false,
      emailMarketing: true,
      invoice,
      repeatingInvoice: null,
    });
  });

  it('gives an admin every stock role, others their own', () => {
    expect(stockRolesOf(user([GlobalRole.Admin]), ID)).toEqual([...STOCK_ROLES]);
    expect(stockRolesOf(user([], { [ID]: [StockRole.ViewConfig] }), ID)).toEqual([StockRole.ViewConfig]);
    expect(stockRolesOf(user([GlobalRole.RunReports]), ID)).toEqual([]);
  });

  it('builds the client form: no staff-only fields, invoice total in dollars', () => {
    const dto = toClientStockDto(
      stock,
      [StockRole.ViewConfig],
      {
        ...NO_CONTRIBUTION,
        emailMarketing: false,
        invoice,
      },
      'running',
    );
    expect(dto).toMatchObject({
      id: ID,
      combinedTicker: 'ABC:ASX',
      roles: [StockRole.ViewConfig],
      emailMarketing: false,
      invoiceId: 'inv-1',
      invoiceTotal: 1650,
      invoiceStatus: 'PAID',
      invoiceDate: '2026-01-05',
      invoiceNumber: 'INV-0042',
      completedInitialPoll: false,
    });
    expect(dto).not.toHaveProperty('accountingReference');
    expect(dto).not.toHaveProperty('pollAsx');
    expect(toClientStockDto(stock, [], NO_CONTRIBUTION, 'completed')).toMatchObject({
      completedInitialPoll: true,
      emailMarketing: null,
      invoiceId: null,
      invoiceTotal: null,
      invoiceStatus: null,
      invoiceDate: null,
      invoiceNumber: null,
    });
  });
});

describe('client save body', () => {
  it('takes combinedTicker, the client fields and the ReplyToComment fields', () => {
    expect(
      ClientSaveStockSchema.parse({
        combinedTicker: ' ABC:ASX ',
        companyName: 'New',
        moderatorEmail: null,
        sendPriceSensitiveAnnouncements: true,
      }),
    ).toEqual({
      combinedTicker: 'ABC:ASX',
      companyName: 'New',
      moderatorEmail: '',
      sendPriceSensitiveAnnouncements: true,
      asRead: {},
    });
  });

  it("sets the client form's read-only fields apart (asRead) for the gateway to compare with the stock as read", () => {
    expect(
      ClientSaveStockSchema.parse({
        combinedTicker: 'ABC:ASX',
        companyName: 'New',
        id: 's-1',
        apiKey: 'key',
        created: '2026-01-01T00:00:00.000Z',
        roles: ['ViewConfig'],
        invoiceTotal: 1200,
        completedInitialPoll: true,
      }),
    ).toEqual({
      combinedTicker: 'ABC:ASX',
      companyName: 'New',
      asRead: {
        id: 's-1',
        apiKey: 'key',
        created: '2026-01-01T00:00:00.000Z',
        roles: ['ViewConfig'],
        invoiceTotal: 1200,
        completedInitialPoll: true,
      },
    });
  });

  it('refuses any field outside the client form by name', () => {
    const r = ClientSaveStockSchema.safeParse({ combinedTicker: 'ABC:ASX', apiKey: 'x', pollAsx: true });
    expect(r.error?.issues.map((i) => i.message)).toEqual(['Not allowed in a client save: pollAsx']);
  });

  it('names a field of the wrong type', () => {
    const r = ClientSaveStockSchema.safeParse({
      combinedTicker: 'ABC:ASX',
      sendPriceSensitiveAnnouncements: 'yes',
    });
    expect(r.error?.issues[0].path).toEqual(['sendPriceSensitiveAnnouncements']);
  });
});
