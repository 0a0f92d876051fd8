import { formatIsoDate, Stock } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import request from 'supertest';
import { clientOf, createStockAsAdmin, Session, signIn } from '../gateway-harness';

/**
 * What the stocks use cases (the `*.cases.ts` beside this file) share. stocks.int-spec.ts starts the
 * services and the gateway once, fills in a `StocksRun` in its beforeAll and registers every case module
 * with it; a case reads the run's fields inside its tests and hooks only (describe bodies run before
 * beforeAll).
 */

const RUN = Date.now().toString(36).slice(-6).toUpperCase();
/** A ticker unique to this run. */
export const T = (prefix: string) => `${prefix}${RUN}`;
export const PASSWORD = 'StocksTest!2026';
export const RATE_LIMIT = 6;
/** The stocks service's "this year" is Sydney's (stock-rules sydneyYear). */
export const sydneyYear = () => Number(formatIsoDate(new Date()).slice(0, 4));

/** The fields a report-runner sees of a stock. */
export const SUMMARY_KEYS = [
  'archived',
  'combinedTicker',
  'companyName',
  'created',
  'exchange',
  'id',
  'ticker',
  'websiteUrl',
].sort();

export class StocksRun {
  http!: ReturnType<typeof request>;
  /** Another gateway's way to the stocks service (it changes a ticker this gateway is not told of). */
  otherGateway!: KafkaRequester;
  /** Sessions by name: admin, reports, useradmin, client (the demo users), tclient, tviewer (ours). */
  readonly sessions: Record<string, Session> = {};

  /** Stocks of this run, by role in the tests. */
  A!: Stock; // tclient: ViewConfig, ReplyToComment, EditAnnouncements; tviewer: EditAnnouncements
  B!: Stock; // tclient: ViewConfig only
  C!: Stock; // nobody's (the "other client's stock")
  D!: Stock; // tclient: ViewConfig, archived

  readonly signIn = (username: string, password: string) => signIn(this.http, username, password);
  readonly get = (path: string, who?: string) => clientOf(this.http, this.sessions).get(path, who);
  readonly post = (path: string, body: object | string, who?: string) =>
    clientOf(this.http, this.sessions).post(path, body, who);
  readonly createStock = (fields: Record<string, unknown>) => createStockAsAdmin(this.post, fields);

  readonly newApiKey = async (): Promise<string> => {
    const res = await this.get('/api/admin/apiKey', 'admin');
    expect(res.status).toBe(200);
    return res.body.apiKey as string;
  };
}
