import {
  AdminSaveStockSchema,
  AdminStockPage,
  ArchiveStockSchema,
  completedInitialPollOf,
  ChangeTickerSchema,
  DateRange,
  GlobalRole,
  hasRole,
  isAdmin,
  ReportRunnerStock,
  SessionUser,
  Stock,
  StockChangeResponse,
  StockListDto,
  readStockList,
  STOCK_LIST_UNAVAILABLE_HEADER,
  Topics,
  routes,
} from '@irp/proto';
import { Body, Controller, Inject, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Route } from '../routing/route';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { DashboardComposer } from '../dashboard/dashboard.composer';
import { ServicesClient } from '../kafka/services.client';
import { CachedStockDirectory } from './stock-directory.cache';
import { InitialPollStatuses } from './initial-poll-statuses';
import { latestInitialPollOf, StockPageComposer } from './stock-page.composer';
import { toAdminStockRow, toInvoiceTotalRow, toReportRunnerStock, toStockSummary } from './stock-views';
import { jsonOnce } from '../routing/json-once';

const changed = (stock: Stock): StockChangeResponse => ({ success: true, stock, errorMessage: null });

/** Staff routes of the stock list and the stock page's Config tab (docs/api/stocks.md). */
@Controller()
export class StocksController {
  constructor(
    private readonly services: ServicesClient,
    private readonly composer: DashboardComposer,
    private readonly directory: CachedStockDirectory,
    private readonly stockPage: StockPageComposer,
    private readonly initialPolls: InitialPollStatuses,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'STOCK_LIST_PAGE_SIZE'>,
  ) {}

  @Route(routes.stocks.list)
  async list(
    @CurrentUser() user: SessionUser,
    @Query() range: DateRange,
    @Res({ passthrough: true }) res: Response,
  ) {
    // Report-runners see no composed column, so the other services are not asked for them; one holding
    // InvoiceTotal sees the repeating invoice total (spec section 6), so gets the figures it sums.
    const shape = isAdmin(user)
      ? 'admin'
      : hasRole(user, GlobalRole.InvoiceTotal)
        ? 'invoiceTotal'
        : 'summary';
    // Staff opening the dashboard together share one reading of it (each a whole list of every stock).
    const { rows, unavailable } = await this.services.sharedRead(
      `staff stock list ${shape} ${JSON.stringify(range)}`,
      () => this.staffList(shape, range),
    );
    // The body is the list itself (spec section 7); which composing services did not answer (for any
    // page) rides in a header, empty when all did (or none was asked).
    res.setHeader(STOCK_LIST_UNAVAILABLE_HEADER, unavailable.join(', '));
    // The callers of one reading get its JSON text made once (bench/README.md, stocks-dashboard).
    return jsonOnce(rows);
  }

  /**
   * Every stock as `shape` sees it. The stocks come a page at a time (no message holds the whole list);
   * each page's columns are asked of the other services while the next page is read, so no message to
   * them holds every id either.
   */
  private async staffList(
    shape: 'admin' | 'invoiceTotal' | 'summary',
    range: DateRange,
  ): Promise<{ rows: StockListDto; unavailable: string[] }> {
    const row = shape === 'invoiceTotal' ? toInvoiceTotalRow : toAdminStockRow;
    const pages: Array<Promise<{ rows: StockListDto; unavailable: string[] }>> = [];
    await readStockList(
      (page) => this.services.shared(Topics.StocksList, page),
      this.config.STOCK_LIST_PAGE_SIZE,
      (stocks) =>
        pages.push(
          shape === 'summary'
            ? Promise.resolve({ rows: stocks.map(toStockSummary), unavailable: [] })
            : this.composer
                .compose(
                  stocks.map((s) => s.id),
                  range,
                )
                .then((composition) => ({
                  rows: stocks.map((s) => row(s, composition.fieldsOf(s.id))),
                  unavailable: composition.unavailable,
                })),
        ),
    );
    const parts = await Promise.all(pages);
    return {
      rows: parts.flatMap((p) => p.rows),
      unavailable: [...new Set(parts.flatMap((p) => p.unavailable))],
    };
  }

  @Route(routes.stocks.save)
  async save(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof AdminSaveStockSchema>) {
    const { id, ...fields } = body;
    // A save never changes the ticker, exchange or id, so the combinedTicker -> id cache stays right.
    const { stock } = await this.services.request(Topics.StocksSave, { actor, mode: 'admin', id, fields });
    return changed(stock);
  }

  @Route(routes.stocks.get)
  async get(
    @CurrentUser() user: SessionUser,
    @Param('combinedTicker') combinedTicker: string,
  ): Promise<AdminStockPage | ReportRunnerStock> {
    // For an admin the announcements service is asked beside the stocks service (both resolve the same
    // name), not after it; its latest initial poll gives completedInitialPoll. Report-runners see no
    // announcements: for them only that initial poll's status is asked, by the stock's id.
    // The page's contributors (the reports service's currentMarketData) are asked beside them too.
    const announcements = isAdmin(user) ? this.stockPage.announcementsOf(user, combinedTicker) : undefined;
    const contributions = isAdmin(user) ? this.stockPage.contributionsOf(combinedTicker) : undefined;
    const { stock } = await this.services.request(Topics.StocksGet, { combinedTicker });
    if (!announcements || !contributions)
      return toReportRunnerStock(stock, (await this.initialPolls.of([stock]))(stock.id));
    const [parts, more] = await Promise.all([announcements, contributions]);
    return {
      ...stock,
      completedInitialPoll: completedInitialPollOf(stock.pollAsx, latestInitialPollOf(parts)),
      ...parts,
      ...more.fields,
      unavailable: [...parts.unavailable, ...more.unavailable],
    };
  }

  @Route(routes.stocks.changeTicker)
  async changeTicker(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof ChangeTickerSchema>) {
    try {
      const { stock } = await this.services.request(Topics.StocksChangeTicker, { actor, ...body });
      return changed(stock);
    } finally {
      // Even a failed or timed-out change may have happened: the old combinedTicker must not stay cached.
      this.directory.forget();
    }
  }

  @Route(routes.stocks.archive)
  async archive(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof ArchiveStockSchema>) {
    try {
      const { stock } = await this.services.request(Topics.StocksArchive, { actor, ...body });
      return changed(stock);
    } finally {
      this.directory.forget();
    }
  }

  @Route(routes.stocks.newApiKey)
  apiKey() {
    return this.services.request(Topics.StocksNewApiKey, {});
  }

  @Route(routes.stocks.exchanges)
  async exchanges() {
    return (await this.services.request(Topics.StocksExchanges, {})).exchanges;
  }
}
