import { INestApplication } from '@nestjs/common';
import { Actor, formatIsoDate, RequestTopic, Topics } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { KafkaRequester } from '@irp/platform';
import {
  createTestRequester,
  dropSchema,
  expectAppError,
  handledMessages,
  ReceivedMessage,
  serviceTestEnv,
  TopicProbe,
} from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { startStocksService } from '../src/main';

/**
 * What the stocks service's integration tests share: the service in this process on a fresh `stocks`
 * schema, on the real broker and database, a requester on its request topics and a probe on its events.
 * A spec file calls `useStocksService()` inside its describe; the bindings below are set by its beforeAll.
 */

const STOCK_TOPICS: readonly RequestTopic[] = [
  Topics.StocksPing,
  Topics.StocksList,
  Topics.StocksGet,
  Topics.StocksGetByIds,
  Topics.StocksResolve,
  Topics.StocksSave,
  Topics.StocksChangeTicker,
  Topics.StocksArchive,
  Topics.StocksNewApiKey,
  Topics.StocksExchanges,
  Topics.StocksNotes,
  Topics.StocksSaveNote,
  Topics.StocksVersionHistory,
  Topics.StocksReferers,
  Topics.StocksAllReferers,
  Topics.StocksWidgetLookup,
  Topics.StocksServiceOptions,
  Topics.StocksSubmitServiceOrder,
  Topics.StocksServiceOrders,
  Topics.StocksCreateFromServiceOrder,
  Topics.StocksServiceOrderOfStock,
  Topics.StocksServiceOrderEmailMarketing,
  Topics.StocksAddressSuggestions,
  Topics.StocksOptionGroups,
  Topics.StocksSaveOptionGroup,
  Topics.StocksSetDefaultOptionGroup,
  Topics.StocksArchiveOptionGroup,
];

export const ADMIN = actor({
  id: '11111111-1111-4111-8111-111111111111',
  username: 'alice',
  roles: ['Admin'],
});
export const REPORTS = actor({
  id: '22222222-2222-4222-8222-222222222222',
  username: 'rita',
  roles: ['RunReports'],
});
export const client = (stockId: string, roles: string[]) =>
  actor({ id: '33333333-3333-4333-8333-333333333333', username: 'carl', stockRoles: { [stockId]: roles } });
export const THIS_YEAR = Number(formatIsoDate(new Date()).slice(0, 4));

// The platform's one AppError expectation, re-exported for the spec files of this harness.
export { expectAppError };

export let app: INestApplication;
export let requester: KafkaRequester;
export let probe: TopicProbe;
export let db: DataSource;
export let healthUrl: string;

export const save = (actor: Actor, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  requester.request(Topics.StocksSave, { actor, mode: 'admin', fields, ...extra }).then((r) => r.stock);
export const clientSave = (actor: Actor, combinedTicker: string, fields: Record<string, unknown>) =>
  requester
    .request(Topics.StocksSave, { actor, mode: 'client', combinedTicker, fields })
    .then((r) => r.stock);
export const get = (combinedTicker: string) =>
  requester.request(Topics.StocksGet, { combinedTicker }).then((r) => r.stock);
export const history = (combinedTicker: string) =>
  requester.request(Topics.StocksVersionHistory, { combinedTicker }).then((r) => r.versions);
export const outboxCount = async () =>
  (await db.query(`SELECT count(*)::int AS n FROM stocks.outbox`))[0].n as number;
/** The first event on `topic` keyed `id` that passes `test`, among those received since `since`. */
export const eventOf = (
  topic: string,
  id: string,
  test: (v: Record<string, unknown>) => boolean = () => true,
  since = 0,
) =>
  probe.waitFor(
    (m: ReceivedMessage) =>
      m.topic === topic &&
      m.key === id &&
      probe.received.indexOf(m) >= since &&
      test(m.value as Record<string, unknown>),
  );
/** Messages the service finished handling on a topic (the kit's /metrics reader). */
export const handled = (topic: string) => handledMessages(healthUrl, topic);

/** Starts the service on a fresh schema with its requester and event probe; stops them after. */
export function useStocksService(): void {
  beforeAll(async () => {
    await dropSchema('stocks');
    probe = await TopicProbe.listen([
      Topics.StockUpserted,
      Topics.StockTickerChanged,
      Topics.StockArchived,
      Topics.ServiceOrderSubmitted,
      Topics.ServiceOrderStockCreated,
    ]);
    app = await startStocksService(serviceTestEnv('stocks'));
    db = app.get(DataSource);
    requester = await createTestRequester(STOCK_TOPICS, 8000);
    healthUrl = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  });

  afterAll(async () => {
    await requester?.close();
    await probe?.close();
    await app?.close();
  });
}
