import { AppError, SERVICE_CONFIG, UnitOfWork } from '@irp/platform';
import {
  AccountingPageDto,
  Actor,
  DashboardInvoiceDto,
  DashboardRepeatingInvoiceDto,
  ErrorCode,
  RepeatingInvoiceDto,
  StockInvoiceDataDto,
} from '@irp/proto';
import { Inject, Injectable } from '@nestjs/common';
import { toDollars, repeatingInvoiceRecord } from '../accounting/accounting-rules';
import { Accounting } from '../accounting/accounting.provider';
import { AccountingSync } from '../accounting/accounting-sync';
import type { InvoicingConfig } from '../config';
import { ProjectedStock, StockProjectionService } from '../stocks/stock-projection.repository';
import {
  accountingLinks,
  AccountingLinks,
  dashboardInvoice,
  dashboardRepeating,
  DEFAULT_REPEATING_AMOUNT,
  invoiceDto,
  invoiceText,
  PAYMENT_DUE_DAYS,
  reminderEmail,
  repeatingDto,
  repeatingText,
  stockOptionLabel,
} from './invoice-rules';
import { InvoiceRow, InvoicesRepository } from './invoices.repository';

const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The invoicing use cases: the dashboards' columns, a stock's invoice data and its saving, the accounting
 * page with its refresh and assignments, contacts and repeating invoices created in the accounting system,
 * reminder mails and invoice PDFs. Unknown tickers and ids are refused naming them, before anything changes.
 */
@Injectable()
export class InvoicesService {
  private readonly links: AccountingLinks;

  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly stocks: StockProjectionService,
    private readonly accounting: Accounting,
    private readonly sync: AccountingSync,
    private readonly uow: UnitOfWork,
    @Inject(SERVICE_CONFIG) private readonly config: InvoicingConfig,
  ) {
    this.links = accountingLinks(config.ACCOUNTING_APP_URL);
  }

  async dashboard(
    stockIds: string[],
    range: { startDate: string; endDate: string } | undefined,
    now = new Date(),
  ): Promise<
    Record<
      string,
      { invoice: DashboardInvoiceDto | null; repeatingInvoice: DashboardRepeatingInvoiceDto | null }
    >
  > {
    const until = (range?.endDate ?? today(now)).slice(0, 10);
    const [latest, repeating] = await Promise.all([
      this.invoices.latestInvoices(stockIds, until),
      this.invoices.repeatingOfStocks(stockIds),
    ]);
    const out: Record<
      string,
      { invoice: DashboardInvoiceDto | null; repeatingInvoice: DashboardRepeatingInvoiceDto | null }
    > = {};
    for (const id of stockIds) out[id] = { invoice: null, repeatingInvoice: null };
    for (const i of latest)
      if (i.stockId && out[i.stockId]) out[i.stockId].invoice = dashboardInvoice(i, now);
    for (const r of repeating)
      if (r.stockId && out[r.stockId]) out[r.stockId].repeatingInvoice = dashboardRepeating(r, this.links);
    return out;
  }

  async stockInvoices(combinedTicker: string, now = new Date()): Promise<StockInvoiceDataDto> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    return this.stockData(stock, now);
  }

  private async stockData(stock: ProjectedStock, now: Date): Promise<StockInvoiceDataDto> {
    const [invoices, billing, options, own, state] = await Promise.all([
      this.invoices.invoicesOfStock(stock.id),
      this.invoices.billing(stock.id),
      this.invoices.repeatingOptions(stock.id),
      this.invoices.repeatingOfStocks([stock.id]),
      this.invoices.syncState(),
    ]);
    return {
      stockId: stock.id,
      combinedTicker: stock.combinedTicker,
      repeatingInvoiceId: own[0]?.id ?? null,
      invoices: invoices.map((i) => invoiceDto(i, this.links, now)),
      repeatingInvoices: options.map((r) => repeatingDto(r, this.links)),
      contactId: billing.contactId,
      reference: stock.accountingReference,
      defaultRepeatingAmount: DEFAULT_REPEATING_AMOUNT,
      syncedAt: state.syncedAt?.toISOString() ?? null,
    };
  }

  async saveStockInvoices(
    req: {
      actor: Actor;
      combinedTicker: string;
      repeatingInvoiceId?: string | null;
      invoices?: string[];
    },
    now = new Date(),
  ): Promise<StockInvoiceDataDto> {
    const stock = await this.stocks.byCombinedTicker(req.combinedTicker);
    // Left out: the choice stays as it is.
    const repeatingId =
      req.repeatingInvoiceId === undefined ? undefined : (req.repeatingInvoiceId?.toLowerCase() ?? null);
    if (repeatingId && !(await this.invoices.repeatingById(repeatingId)))
      throw new AppError(ErrorCode.BadRequest, `No repeating invoice has the id ${req.repeatingInvoiceId}`);
    const invoiceIds = req.invoices ? [...new Set(req.invoices.map((id) => id.toLowerCase()))] : undefined;
    if (invoiceIds) {
      const known = await this.invoices.knownInvoiceIds(invoiceIds);
      const unknown = invoiceIds.filter((id) => !known.has(id));
      if (unknown.length)
        throw new AppError(ErrorCode.BadRequest, `No invoice has the id ${unknown.slice(0, 5).join(', ')}`);
    }
    await this.uow.run(async (tx) => {
      if (repeatingId !== undefined)
        await this.invoices.saveBilling(
          stock.id,
          { repeatingInvoiceId: repeatingId },
          req.actor.username,
          tx,
        );
      if (invoiceIds)
        await this.invoices.replaceStockAssignments(stock.id, invoiceIds, req.actor.username, tx);
    });
    return this.stockData(stock, now);
  }

  async accountingPage(): Promise<AccountingPageDto> {
    const [repeating, unassigned, ignored, stocks, state] = await Promise.all([
      this.invoices.unassignedRepeating(),
      this.invoices.invoicesWithoutStock(false),
      this.invoices.invoicesWithoutStock(true),
      this.invoices.stockOptions(),
      this.invoices.syncState(),
    ]);
    const line = (i: InvoiceRow) => ({
      invoiceID: i.invoiceId,
      text: invoiceText(i),
      url: this.links.invoice(i.invoiceId),
      ticker: i.assignedTicker,
    });
    return {
      repeatingInvoices: repeating.map((r) => ({
        id: r.id,
        text: repeatingText(r),
        url: this.links.repeatingInvoice(r.id),
      })),
      invoices: unassigned.map(line),
      ignored: ignored.map(line),
      stocks: stocks.map((s) => ({ ticker: s.combinedTicker, label: stockOptionLabel(s) })),
      syncedAt: state.syncedAt?.toISOString() ?? null,
    };
  }

  async refresh(): Promise<AccountingPageDto> {
    await this.sync.sync({ full: false, repeating: true });
    return this.accountingPage();
  }

  /** Staff's choices: every invoice id and ticker must exist, or nothing is saved. */
  async assign(
    actor: Actor,
    items: Array<{ invoiceId: string; ignore?: boolean; ticker?: string | null }>,
  ): Promise<AccountingPageDto> {
    const ids = items.map((i) => i.invoiceId.toLowerCase());
    const tickers = [...new Set(items.flatMap((i) => (i.ticker ? [i.ticker.trim().toUpperCase()] : [])))];
    await this.uow.run(async (tx) => {
      const known = await this.invoices.knownInvoiceIds(ids, tx);
      const unknownIds = ids.filter((id) => !known.has(id));
      if (unknownIds.length)
        throw new AppError(
          ErrorCode.BadRequest,
          `No invoice has the id ${unknownIds.slice(0, 5).join(', ')}`,
        );
      const stockIds = await this.invoices.stockIdsByTicker(tickers, tx);
      const unknownTickers = tickers.filter((t) => !stockIds.has(t));
      if (unknownTickers.length)
        throw new AppError(
          ErrorCode.BadRequest,
          `No stock has the ticker ${unknownTickers.slice(0, 5).join(', ')}`,
        );
      await this.invoices.setAssignments(
        items.map((i) => ({
          invoiceId: i.invoiceId.toLowerCase(),
          stockId: i.ticker ? stockIds.get(i.ticker.trim().toUpperCase())! : null,
          ignored: i.ignore === true && !i.ticker,
        })),
        actor.username,
        tx,
      );
    });
    return this.accountingPage();
  }

  /** A contact named as the stock's company, with its contact email; kept as the stock's contact. */
  async createContact(actor: Actor, stockId: string): Promise<{ contactId: string }> {
    const stock = await this.stocks.get(stockId);
    const name = stock.companyName.trim() || stock.combinedTicker;
    const email = stock.contactEmail.split(/[,;]/)[0]?.trim() ?? '';
    const contactId = await this.accounting.use().createContact({ name, email });
    await this.invoices.saveBilling(stock.id, { contactId }, actor.username);
    return { contactId };
  }

  /**
   * A yearly repeating invoice of the amount (cents, excluding GST; GST added by the accounting system) for
   * the stock's contact, referenced by the stock's accounting reference so its invoices match the stock,
   * starting on the stock's billing date (today when that is past), due 7 days after each invoice.
   */
  async createRepeatingInvoice(
    actor: Actor,
    stockId: string,
    amountCents: number,
    now = new Date(),
  ): Promise<{ repeatingInvoice: RepeatingInvoiceDto }> {
    const stock = await this.stocks.get(stockId);
    const billing = await this.invoices.billing(stock.id);
    if (!billing.contactId)
      throw new AppError(
        ErrorCode.BadRequest,
        `${stock.combinedTicker} has no contact in the accounting system yet: create the contact first`,
      );
    const reference = stock.accountingReference.trim() || stock.combinedTicker;
    const billingDay = /^\d{4}-\d{2}-\d{2}/.test(stock.billingDate) ? stock.billingDate.slice(0, 10) : '';
    const startDate = billingDay > today(now) ? billingDay : today(now);
    const created = await this.accounting.use().createRepeatingInvoice({
      contactId: billing.contactId,
      reference,
      description: `IR Portal annual subscription: ${stock.companyName.trim() || stock.combinedTicker} (${stock.combinedTicker})`,
      unitAmount: toDollars(amountCents),
      accountCode: this.config.ACCOUNTING_SALES_ACCOUNT_CODE,
      startDate,
      dueDays: PAYMENT_DUE_DAYS,
    });
    const record = repeatingInvoiceRecord(created);
    if (!record)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'The accounting system answered an unreadable repeating invoice',
      );
    await this.uow.run(async (tx) => {
      await this.invoices.saveRepeatingInvoices([record], false, tx);
      await this.invoices.saveBilling(stock.id, { repeatingInvoiceId: record.id }, actor.username, tx);
    });
    return { repeatingInvoice: repeatingDto(record, this.links) };
  }

  async reminderEmail(combinedTicker: string, now = new Date()) {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const invoices = await this.invoices.invoicesOfStock(stock.id);
    return reminderEmail({
      companyName: stock.companyName,
      combinedTicker: stock.combinedTicker,
      invoices,
      signedBy: { name: this.config.BILLING_CONTACT_NAME, email: this.config.BILLING_CONTACT_EMAIL },
      now,
    });
  }

  /** The PDF of one of the stock's invoices; another stock's (or an unknown) invoice is NOT_FOUND. */
  async invoicePdf(combinedTicker: string, invoiceId: string): Promise<{ fileName: string; pdf: string }> {
    const stock = await this.stocks.byCombinedTicker(combinedTicker);
    const invoice = (await this.invoices.invoicesOfStock(stock.id)).find(
      (i) => i.invoiceId === invoiceId.toLowerCase(),
    );
    if (!invoice)
      throw new AppError(
        ErrorCode.NotFound,
        `${stock.combinedTicker} has no invoice with the id ${invoiceId}`,
      );
    const pdf = await this.accounting.use().invoicePdf(invoice.invoiceId);
    const fileName = `${(invoice.invoiceNumber || invoice.invoiceId).replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
    return { fileName, pdf: pdf.toString('base64') };
  }
}
