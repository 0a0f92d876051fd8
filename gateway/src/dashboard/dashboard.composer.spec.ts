import { currentMonthRange, DashboardInvoiceDto, DateRangeQuerySchema } from '@irp/proto';
import { DashboardContribution, DashboardContributor, NO_CONTRIBUTION } from './dashboard-contributor';
import { DashboardComposer } from './dashboard.composer';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const range = { startDate: '2026-01-01', endDate: '2026-01-31' };

const invoice: DashboardInvoiceDto = {
  invoiceId: 'inv-1',
  invoiceNumber: 'INV-0001',
  totalCents: 123456,
  date: '2026-01-05',
  status: 'AUTHORISED',
  unpaid: true,
  overdue: false,
  daysLate: 0,
};

const contributor = (
  name: string,
  contribute: DashboardContributor['contribute'],
): DashboardContributor & { calls: Array<{ ids: string[]; range: unknown }> } => {
  const calls: Array<{ ids: string[]; range: unknown }> = [];
  return {
    name,
    calls,
    contribute: (ids, r) => {
      calls.push({ ids, range: r });
      return contribute(ids, r);
    },
  };
};

const answering = (name: string, entries: Array<[string, DashboardContribution]>) =>
  contributor(name, async () => new Map(entries));

const composer = (contributors: DashboardContributor[], timeoutMs = 200) =>
  new DashboardComposer(contributors, { DASHBOARD_CONTRIBUTOR_TIMEOUT_MS: timeoutMs });

describe('DashboardComposer', () => {
  it('gives every stock null fields when no contributor is registered', async () => {
    const c = await composer([]).compose([A, B], range);
    expect(c.unavailable).toEqual([]);
    expect(c.fieldsOf(A)).toEqual({ emailMarketing: null, invoice: null, repeatingInvoice: null });
  });

  it('merges the fields of every contributor by stock id, passing the ids and the range', async () => {
    const email = answering('email-marketing', [
      [A, { emailMarketing: true }],
      [B, { emailMarketing: false }],
    ]);
    const invoicing = answering('invoicing', [[A, { invoice, repeatingInvoice: null }]]);
    const c = await composer([email, invoicing]).compose([A, B, A], range);
    expect(c.unavailable).toEqual([]);
    expect(c.fieldsOf(A)).toEqual({ emailMarketing: true, invoice, repeatingInvoice: null });
    expect(c.fieldsOf(B)).toEqual({ emailMarketing: false, invoice: null, repeatingInvoice: null });
    expect(email.calls).toEqual([{ ids: [A, B], range }]);
    expect(invoicing.calls).toEqual([{ ids: [A, B], range }]);
  });

  it('ignores stocks it did not ask about', async () => {
    const c = await composer([answering('x', [[B, { emailMarketing: true }]])]).compose([A], range);
    expect(c.fieldsOf(B)).toEqual(NO_CONTRIBUTION);
  });

  it('names a failing contributor in unavailable and keeps the others', async () => {
    const failing = contributor('invoicing', async () => {
      throw new Error('The invoicing service is not available right now');
    });
    const c = await composer([
      answering('email-marketing', [[A, { emailMarketing: true }]]),
      failing,
    ]).compose([A], range);
    expect(c.unavailable).toEqual(['invoicing']);
    expect(c.fieldsOf(A)).toEqual({ emailMarketing: true, invoice: null, repeatingInvoice: null });
  });

  it('gives up on a slow contributor after the timeout, running contributors in parallel', async () => {
    // Never answers: asked one after the other, the second would never be asked and both would be missing.
    const slow = contributor(
      'invoicing',
      () => new Promise<Map<string, { invoice: typeof invoice }>>(() => undefined),
    );
    const alsoSlowButInTime = contributor(
      'email-marketing',
      () => new Promise((resolve) => setTimeout(() => resolve(new Map([[A, { emailMarketing: true }]])), 60)),
    );
    const c = await composer([slow, alsoSlowButInTime], 100).compose([A], range);
    expect(c.unavailable).toEqual(['invoicing']);
    expect(c.fieldsOf(A)).toEqual({ emailMarketing: true, invoice: null, repeatingInvoice: null });
  });

  it('does not ask anyone for an empty list of stocks', async () => {
    const email = answering('email-marketing', []);
    const c = await composer([email]).compose([], range);
    expect(email.calls).toEqual([]);
    expect(c.unavailable).toEqual([]);
  });
});

describe('dashboard date range', () => {
  it('defaults to the current month in Sydney', () => {
    // 31 Jan 2026 20:00 UTC is already 1 Feb in Sydney.
    expect(currentMonthRange(new Date('2026-01-31T20:00:00Z'))).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    });
    expect(currentMonthRange(new Date('2024-02-10T00:00:00Z'))).toEqual({
      startDate: '2024-02-01',
      endDate: '2024-02-29',
    });
    expect(DateRangeQuerySchema.parse({})).toEqual(currentMonthRange());
  });

  it('accepts ISO dates and date-times and refuses others, and a start after the end', () => {
    expect(DateRangeQuerySchema.parse({ startDate: '2025-01-01', endDate: '2025-03-31T00:00:00Z' })).toEqual({
      startDate: '2025-01-01',
      endDate: '2025-03-31T00:00:00Z',
    });
    const bad = DateRangeQuerySchema.safeParse({ startDate: '01/02/2025' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['startDate'],
      message: 'must be an ISO date like 2026-01-31',
    });
    const reversed = DateRangeQuerySchema.safeParse({ startDate: '2025-02-01', endDate: '2025-01-01' });
    expect(reversed.error?.issues[0].message).toBe('must not be after endDate (2025-01-01)');
  });
});
