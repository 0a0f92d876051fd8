import {
  DAY_MS,
  InvoiceStatus,
  LineAmountType,
  Schedule,
  StoredContact,
  StoredInvoice,
  StoredLine,
  StoredRepeatingInvoice,
  dueDateOf,
  nameGuid,
  nextRun,
  nextScheduledDate,
  plusMonths,
  startOfMonth,
  totalsOf,
} from './accounting-model';

/**
 * The accounting stand-in's demo organisation, built from a "today" (midnight UTC) so its ages stay true on
 * any day: the demo stocks' invoices and repeating invoices under the accounting references the stocks seed
 * gives them (services/stocks/src/demo-stocks.ts: BHP `BHP-2023-001`, VOD `VOD-UK-17`; kept here as data,
 * a stand-in does not import a service), paid and unpaid ones, one unpaid invoice 91 days after its date
 * (overdue by proto's invoiceStanding: more than 90 days) and one 89 days (not yet), a monthly and a yearly
 * schedule, and invoices whose Reference matches no stock (Wesfarmers, Woolworths) or is empty (Pilbara),
 * for staff to assign. No randomness: the same today gives the same ids, numbers and amounts.
 */

/** The accounting references of the demo stocks (the stocks seed's `accountingReference`). */
export const DEMO_STOCK_REFERENCES = { BHP: 'BHP-2023-001', VOD: 'VOD-UK-17' } as const;
/** References of the demo that match no stock: staff assign them to a stock later. */
export const UNASSIGNED_REFERENCES = { WES: 'WES-2021-007', WOW: 'WOW-2024-003' } as const;

/** The synthetic stocks' references (stocks seed `syntheticStock(i)`: `SYN-00001`...), for benchmarks. */
export const syntheticReference = (i: number) => `SYN-${String(i).padStart(5, '0')}`;

export interface AccountingData {
  contacts: StoredContact[];
  repeatingInvoices: StoredRepeatingInvoice[];
  /** In number order (INV-0001 first). */
  invoices: StoredInvoice[];
}

const HOUR_MS = 3_600_000;
const line = (
  description: string,
  unitAmount: number,
  taxType: StoredLine['taxType'] = 'OUTPUT',
  quantity = 1,
): StoredLine => ({ description, quantity, unitAmount, accountCode: '200', taxType });

export const invoiceNumber = (n: number) => `INV-${String(n).padStart(4, '0')}`;

/** The demo organisation as of `todayMs` (midnight UTC). */
export function demoAccountingData(todayMs: number): AccountingData {
  const day = (offset: number) => todayMs + offset * DAY_MS;
  // Nothing in the demo was changed today or later: a poll's If-Modified-Since of "now" finds none of it.
  const past = (ms: number) => Math.min(ms, todayMs - 1000);
  const monthStart = (monthsAgo: number) => plusMonths(startOfMonth(todayMs), -monthsAgo);

  const contacts: StoredContact[] = [
    ['BHP Group Limited', 'accounts.payable@bhp.example.com', 900],
    ['Vodafone Group Plc', 'supplier.invoices@vodafone.example.com', 610],
    ['Wesfarmers Limited', 'accounts@wesfarmers.example.com.au', 1500],
    ['Woolworths Group Limited', 'ap@woolworths.example.com.au', 330],
    ['Pilbara Minerals Limited', 'finance@pls.example.com', 2],
  ].map(([name, email, daysAgo], i) => ({
    id: nameGuid(`contact:${i + 1}`),
    name: name as string,
    email: email as string,
    updatedMs: past(day(-(daysAgo as number)) + 9 * HOUR_MS),
  }));
  const [bhp, vod, wes, wow, pls] = contacts;

  const repeating = (
    n: number,
    contact: StoredContact,
    reference: string,
    lines: StoredLine[],
    schedule: Omit<Schedule, 'nextScheduledDateMs' | 'endDateMs'>,
    lineAmountTypes: LineAmountType = 'Exclusive',
  ): StoredRepeatingInvoice => {
    const full = { ...schedule, endDateMs: null };
    return {
      id: nameGuid(`repeating-invoice:${n}`),
      reference,
      contactId: contact.id,
      status: 'AUTHORISED',
      schedule: { ...full, nextScheduledDateMs: nextScheduledDate(full, day(1)) },
      lineAmountTypes,
      lines,
      totals: totalsOf(lines, lineAmountTypes),
    };
  };

  const bhpMonthly = repeating(
    1,
    bhp,
    DEMO_STOCK_REFERENCES.BHP,
    [line('IR Portal subscription (monthly)', 1500)],
    {
      period: 1,
      unit: 'MONTHLY',
      dueDate: 14,
      dueDateType: 'DAYSAFTERBILLDATE',
      startDateMs: monthStart(12),
    },
  );
  // Yearly is Period 12 of Unit MONTHLY in Xero. An LSE client: export of services, no GST.
  const vodYearly = repeating(
    2,
    vod,
    DEMO_STOCK_REFERENCES.VOD,
    [line('IR Portal subscription (annual, LSE)', 6000, 'EXEMPTEXPORT')],
    {
      period: 12,
      unit: 'MONTHLY',
      dueDate: 0,
      dueDateType: 'DAYSAFTERBILLDATE',
      startDateMs: plusMonths(day(-91), -12),
    },
  );
  const wowMonthly = repeating(
    3,
    wow,
    UNASSIGNED_REFERENCES.WOW,
    [line('IR Portal subscription (monthly)', 1000)],
    {
      period: 1,
      unit: 'MONTHLY',
      dueDate: 20,
      dueDateType: 'OFFOLLOWINGMONTH',
      startDateMs: monthStart(3),
    },
  );

  interface Draft {
    contact: StoredContact;
    reference: string;
    repeating?: StoredRepeatingInvoice;
    lines?: StoredLine[];
    dateMs: number;
    dueDateMs?: number;
    status: InvoiceStatus;
    /** Paid on this day: the full amount, or `paidCents` of it. */
    paidOnMs?: number;
    paidCents?: number;
    /** When it was last changed, if not on its date or payment. */
    updatedMs?: number;
  }
  const drafts: Draft[] = [];
  const fromSchedule = (
    r: StoredRepeatingInvoice,
    dateMs: number,
    rest: Omit<Draft, 'contact' | 'reference' | 'dateMs'>,
  ) =>
    drafts.push({
      contact: contacts.find((c) => c.id === r.contactId)!,
      reference: r.reference,
      repeating: r,
      dateMs,
      dueDateMs: dueDateOf(dateMs, r.schedule.dueDate, r.schedule.dueDateType),
      ...rest,
    });

  // BHP: a year of monthly invoices, paid but for this month's.
  for (
    let k = 12, date = bhpMonthly.schedule.startDateMs;
    k >= 0;
    k--, date = nextRun(bhpMonthly.schedule, date)
  ) {
    const due = dueDateOf(date, 14, 'DAYSAFTERBILLDATE');
    fromSchedule(
      bhpMonthly,
      date,
      k > 0 ? { status: 'PAID', paidOnMs: due - 3 * DAY_MS } : { status: 'AUTHORISED' },
    );
  }
  // BHP: an archive import invoiced 95 days ago with the wrong amount, voided and reissued 89 days ago (unpaid,
  // due on receipt: 89 days after its date, not yet overdue).
  drafts.push({
    contact: bhp,
    reference: DEMO_STOCK_REFERENCES.BHP,
    lines: [line('Announcement archive import (2018 onwards)', 2400)],
    dateMs: day(-95),
    status: 'VOIDED',
    updatedMs: day(-89) + 10 * HOUR_MS,
  });
  drafts.push({
    contact: bhp,
    reference: DEMO_STOCK_REFERENCES.BHP,
    lines: [line('Announcement archive import (2018 onwards)', 2000)],
    dateMs: day(-89),
    status: 'AUTHORISED',
  });
  // VOD: last year's annual invoice paid, this year's unpaid 91 days after its date (due on receipt): overdue.
  fromSchedule(vodYearly, vodYearly.schedule.startDateMs, {
    status: 'PAID',
    paidOnMs: vodYearly.schedule.startDateMs + 20 * DAY_MS,
  });
  fromSchedule(vodYearly, day(-91), { status: 'AUTHORISED' });
  // Wesfarmers: a reference no stock has (yet), both invoices paid.
  for (const [date, paid] of [
    [-500, -480],
    [-135, -100],
  ])
    drafts.push({
      contact: wes,
      reference: UNASSIGNED_REFERENCES.WES,
      lines: [line('IR Portal subscription (annual)', 4000)],
      dateMs: day(date),
      status: 'PAID',
      paidOnMs: day(paid),
    });
  // Woolworths: a monthly schedule under an unassigned reference; last month's half paid, a draft quote.
  for (
    let k = 3, date = wowMonthly.schedule.startDateMs;
    k >= 0;
    k--, date = nextRun(wowMonthly.schedule, date)
  ) {
    const due = dueDateOf(date, 20, 'OFFOLLOWINGMONTH');
    fromSchedule(
      wowMonthly,
      date,
      k >= 2
        ? { status: 'PAID', paidOnMs: due - 5 * DAY_MS }
        : k === 1
          ? { status: 'AUTHORISED', paidOnMs: date + 10 * DAY_MS, paidCents: 55_000 }
          : { status: 'AUTHORISED' },
    );
  }
  drafts.push({
    contact: wow,
    reference: UNASSIGNED_REFERENCES.WOW,
    lines: [line('Widget customisation', 400, 'OUTPUT', 2)],
    dateMs: day(0),
    status: 'DRAFT',
  });
  // Pilbara: a new client's onboarding, invoiced before anyone set a reference.
  drafts.push({
    contact: pls,
    reference: '',
    lines: [line('Onboarding and widget set-up', 500)],
    dateMs: day(-2),
    status: 'AUTHORISED',
  });

  // Numbered in date order, as they were raised.
  const ordered = drafts.map((d, i) => ({ d, i })).sort((a, b) => a.d.dateMs - b.d.dateMs || a.i - b.i);
  const invoices = ordered.map(({ d }, i): StoredInvoice => {
    const lines = d.lines ?? d.repeating!.lines;
    const lineAmountTypes = d.repeating?.lineAmountTypes ?? 'Exclusive';
    const totals = totalsOf(lines, lineAmountTypes);
    const paidCents = d.paidOnMs === undefined ? 0 : (d.paidCents ?? totals.totalCents);
    const fullyPaid = d.paidOnMs !== undefined && paidCents === totals.totalCents;
    return {
      id: nameGuid(`invoice:${i + 1}`),
      number: invoiceNumber(i + 1),
      reference: d.reference,
      repeatingInvoiceId: d.repeating?.id ?? null,
      contactId: d.contact.id,
      dateMs: d.dateMs,
      dueDateMs: d.dueDateMs ?? d.dateMs,
      status: d.status,
      lineAmountTypes,
      lines,
      totals,
      paidCents,
      fullyPaidOnMs: fullyPaid ? d.paidOnMs! : null,
      updatedMs: past(d.updatedMs ?? (d.paidOnMs ?? d.dateMs) + 9 * HOUR_MS),
    };
  });
  return { contacts, repeatingInvoices: [bhpMonthly, vodYearly, wowMonthly], invoices };
}

/** The contact of a synthetic stock's invoices (created on first use). */
export const syntheticContact = (i: number, updatedMs: number): StoredContact => ({
  id: nameGuid(`synthetic-contact:${i}`),
  name: `Synthetic stock ${syntheticReference(i)}`,
  email: `accounts@syn${i}.example.com`,
  updatedMs,
});

/**
 * The n-th benchmark invoice (n from 1): the same n always gives the same invoice. Its Reference is a
 * synthetic stock's (`SYN-00001`... cycling over `stocks`) unless `reference` is given; dated up to a year
 * back, four in five paid, amounts varying by n; changed at `updatedMs` (now: a poll sees them as new).
 */
export function syntheticInvoice(
  n: number,
  options: {
    number: string;
    todayMs: number;
    updatedMs: number;
    stocks: number;
    contactId: string;
    reference?: string;
  },
): StoredInvoice {
  const lines = [line('IR Portal subscription (monthly)', 1000 + (n % 7) * 100)];
  const totals = totalsOf(lines, 'Exclusive');
  const dateMs = options.todayMs - (n % 365) * DAY_MS;
  const paid = n % 5 !== 0;
  return {
    id: nameGuid(`synthetic-invoice:${n}`),
    number: options.number,
    reference: options.reference ?? syntheticReference(((n - 1) % options.stocks) + 1),
    repeatingInvoiceId: null,
    contactId: options.contactId,
    dateMs,
    dueDateMs: dateMs + 14 * DAY_MS,
    status: paid ? 'PAID' : 'AUTHORISED',
    lineAmountTypes: 'Exclusive',
    lines,
    totals,
    paidCents: paid ? totals.totalCents : 0,
    fullyPaidOnMs: paid ? Math.min(dateMs + 10 * DAY_MS, options.todayMs) : null,
    updatedMs: options.updatedMs,
  };
}
