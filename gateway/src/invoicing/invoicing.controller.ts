import { AppError } from '@irp/platform';
import {
  ACCOUNTING_INVOICE_PAGE_MAX,
  AccountingInvoicesParamsSchema,
  AccountingInvoicesQuerySchema,
  AssignInvoicesBodySchema,
  CreateContactQuerySchema,
  CreateRepeatingInvoiceBodySchema,
  ErrorCode,
  InvoiceDownloadQuerySchema,
  InvoiceTickerQuerySchema,
  parseCombinedTicker,
  SaveInvoiceDataBodySchema,
  SessionUser,
  Topics,
  routes,
} from '@irp/proto';
import { Body, Controller, Inject, Param, Query, Res, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import type { z } from 'zod';
import { contentDispositionOf } from '../announcements/pdf-download';
import { CheckedStockId, CurrentUser } from '../auth/decorators';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';
import { Route } from '../routing/route';

/**
 * Whether saveInvoiceData's body `Ticker` names the path's stock: the same ticker:exchange (a bare ticker
 * means ASX), or the path's ticker alone (the spec's Stock.ticker, without its exchange).
 */
function namesPathStock(bodyTicker: string, pathTicker: string): boolean {
  const path = parseCombinedTicker(pathTicker);
  const body = parseCombinedTicker(bodyTicker);
  if (!path || !body) return false;
  if (body.ticker !== path.ticker) return false;
  return body.exchange === path.exchange || !bodyTicker.includes(':');
}

/**
 * Spec section 7's Invoicing calls, each asking the invoicing service: a stock's invoice data and its save,
 * the accounting page with its refresh and assignments, contact and repeating invoice creation (the
 * accounting system's refusal as `success: false` with its message: the entries' `refusal`), the reminder
 * mail, and the invoice PDF (the guard has checked Invoicing on the named stock; the service checks the
 * invoice is that stock's).
 */
@Controller()
export class InvoicingController {
  private readonly accountingMs: number;

  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'ACCOUNTING_REQUEST_TIMEOUT_MS'>,
  ) {
    this.accountingMs = config.ACCOUNTING_REQUEST_TIMEOUT_MS;
  }

  @Route(routes.invoicing.invoices)
  invoices(@Query() q: z.output<typeof InvoiceTickerQuerySchema>) {
    return this.services.request(Topics.InvoicingStockInvoices, { combinedTicker: q.ticker });
  }

  @Route(routes.invoicing.saveInvoiceData)
  saveInvoiceData(
    @CurrentUser() actor: SessionUser,
    @Param('ticker') ticker: string,
    @Body() body: z.output<typeof SaveInvoiceDataBodySchema>,
  ) {
    if (body.ticker !== undefined && !namesPathStock(body.ticker, ticker))
      throw new AppError(
        ErrorCode.BadRequest,
        `Ticker ${body.ticker} names another stock than the path's ${ticker.trim()}`,
      );
    return this.services.request(Topics.InvoicingSaveStockInvoices, {
      actor,
      combinedTicker: ticker.trim(),
      repeatingInvoiceId: body.repeatingInvoiceId,
      invoices: body.invoices,
    });
  }

  @Route(routes.invoicing.accountingPage)
  accountingPage() {
    return this.services.request(Topics.InvoicingAccountingPage, {});
  }

  /** A later page of the accounting page's unassigned or ignored invoices (ACCOUNTING_INVOICE_PAGE_MAX). */
  @Route(routes.invoicing.accountingInvoices)
  accountingInvoices(
    @Param('list') list: z.output<typeof AccountingInvoicesParamsSchema>['list'],
    @Query() query: z.output<typeof AccountingInvoicesQuerySchema>,
  ) {
    return this.services.request(Topics.InvoicingAccountingInvoices, {
      list,
      limit: ACCOUNTING_INVOICE_PAGE_MAX,
      after: query.after,
    });
  }

  @Route(routes.invoicing.refreshAccounting)
  refresh(@CurrentUser() actor: SessionUser) {
    return this.services.request(Topics.InvoicingRefresh, { actor }, this.accountingMs);
  }

  @Route(routes.invoicing.assignInvoices)
  assign(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof AssignInvoicesBodySchema>) {
    return this.services.request(Topics.InvoicingAssign, { actor, items: body.items });
  }

  @Route(routes.invoicing.createContact)
  async createContact(
    @CurrentUser() actor: SessionUser,
    @Query() q: z.output<typeof CreateContactQuerySchema>,
  ) {
    const { contactId } = await this.services.request(
      Topics.InvoicingCreateContact,
      { actor, stockId: q.id },
      this.accountingMs,
    );
    return { success: true, contactId, errorMessage: null };
  }

  @Route(routes.invoicing.createRepeatingInvoice)
  async createRepeatingInvoice(
    @CurrentUser() actor: SessionUser,
    @Body() body: z.output<typeof CreateRepeatingInvoiceBodySchema>,
  ) {
    const { repeatingInvoice } = await this.services.request(
      Topics.InvoicingCreateRepeatingInvoice,
      {
        actor,
        stockId: body.id,
        amountCents: Math.round(body.amount * 100),
      },
      this.accountingMs,
    );
    return { success: true, repeatingInvoice, errorMessage: null };
  }

  @Route(routes.invoicing.reminderEmail)
  reminderEmail(@Param('combinedTicker') combinedTicker: string) {
    return this.services.request(Topics.InvoicingReminderEmail, { combinedTicker: combinedTicker.trim() });
  }

  @Route(routes.invoicing.invoiceDownload)
  async invoiceDownload(
    @Query() q: z.output<typeof InvoiceDownloadQuerySchema>,
    @CheckedStockId() checkedStockId: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { fileName, pdf } = await this.services.request(
      Topics.InvoicingInvoicePdf,
      // The stock the guard checked the role on: the service gives that stock's invoices only.
      { combinedTicker: q.ticker, invoiceId: q.invoiceId, checkedStockId },
      this.accountingMs,
    );
    const bytes = Buffer.from(pdf, 'base64');
    // An invoice is the client's own business record: never kept by shared caches.
    res.setHeader('Cache-Control', 'private, no-store');
    return new StreamableFile(bytes, {
      type: 'application/pdf',
      disposition: contentDispositionOf(fileName),
      length: bytes.length,
    });
  }
}
