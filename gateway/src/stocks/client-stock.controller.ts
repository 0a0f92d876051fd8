import {
  ClientSaveStockSchema,
  ClientStockDto,
  CombinedTickerQuery,
  currentMonthRange,
  ErrorCode,
  hasStockRole,
  SessionUser,
  Stock,
  STOCK_ROLES,
  stockRolesOf,
  Topics,
  routes,
} from '@irp/proto';
import { AppError } from '@irp/platform';
import { Body, Controller, Query } from '@nestjs/common';
import { Route } from '../routing/route';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { DashboardComposer } from '../dashboard/dashboard.composer';
import { ServicesClient } from '../kafka/services.client';
import { InitialPollStatuses } from './initial-poll-statuses';
import { toClientStockDto } from './stock-views';

/** A client form as its JSON reads (dates as text), to compare with what a client posted back. */
const readOnlyView = (dto: ClientStockDto): Record<string, unknown> => JSON.parse(JSON.stringify(dto));

/** The client user's stocks: the client dashboard and the client stock page. */
@Controller()
export class ClientStockController {
  constructor(
    private readonly services: ServicesClient,
    private readonly composer: DashboardComposer,
    private readonly initialPolls: InitialPollStatuses,
  ) {}

  @Route(routes.stocks.clientGet)
  async get(@CurrentUser() user: SessionUser, @Query() q: CombinedTickerQuery) {
    const { stock } = await this.services.request(Topics.StocksGet, { combinedTicker: q.combinedTicker });
    // The guard checked the id its cache holds for this name; after a ticker change elsewhere that may be
    // another stock's, so the role is checked again on the stock actually read.
    if (!hasStockRole(user, stock.id, STOCK_ROLES))
      throw new AppError(
        ErrorCode.Forbidden,
        `You do not have the ${STOCK_ROLES.join(' or ')} permission on ${q.combinedTicker}`,
      );
    return (await this.toClientStocks(user, [stock]))[0];
  }

  @Route(routes.stocks.clientSave)
  async save(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof ClientSaveStockSchema>) {
    const { combinedTicker, asRead, ...fields } = body;
    if (Object.keys(asRead).length) await this.refuseChangedReadOnly(actor, combinedTicker, asRead);
    const { stock } = await this.services.request(Topics.StocksSave, {
      actor,
      mode: 'client',
      combinedTicker,
      fields,
    });
    return {
      success: true as const,
      stock: (await this.toClientStocks(actor, [stock]))[0],
      errorMessage: null,
    };
  }

  /**
   * The client form posted back as read: its read-only fields (ClientSaveStockSchema's `asRead`) must be what
   * this caller reads of the stock now; one that differs, or that the caller may not read, is refused naming
   * it (a client must never think it changed what only staff may change).
   */
  private async refuseChangedReadOnly(
    actor: SessionUser,
    combinedTicker: string,
    asRead: Record<string, unknown>,
  ): Promise<void> {
    const { stock } = await this.services.request(Topics.StocksGet, { combinedTicker });
    const current = readOnlyView((await this.toClientStocks(actor, [stock]))[0]);
    const changed = Object.keys(asRead).filter(
      (k) => !(k in current) || JSON.stringify(current[k]) !== JSON.stringify(asRead[k]),
    );
    if (changed.length)
      throw new AppError(
        ErrorCode.BadRequest,
        `Not allowed in a client save: ${changed.join(', ')} (read-only: send it as read or leave it out)`,
      );
  }

  @Route(routes.stocks.clientDashboard)
  async dashboard(@CurrentUser() user: SessionUser) {
    const ids = Object.keys(user.stockRoles);
    if (!ids.length) return { stocks: [] };
    const { stocks } = await this.services.request(Topics.StocksGetByIds, { ids });
    const live = stocks
      .filter((s) => !s.archived)
      .sort((a, b) => a.combinedTicker.localeCompare(b.combinedTicker));
    return { stocks: await this.toClientStocks(user, live) };
  }

  /**
   * The client form of stocks with the composed columns and completedInitialPoll, each asked once for all
   * the stocks, in parallel. The client dashboard has no date filter, so contributors are asked about the
   * current month (as the staff dashboard's default).
   */
  private async toClientStocks(user: SessionUser, stocks: Stock[]): Promise<ClientStockDto[]> {
    const [composition, latest] = await Promise.all([
      this.composer.compose(
        stocks.map((s) => s.id),
        currentMonthRange(),
      ),
      this.initialPolls.of(stocks),
    ]);
    return stocks.map((s) =>
      toClientStockDto(s, stockRolesOf(user, s.id), composition.fieldsOf(s.id), latest(s.id)),
    );
  }
}
