import { DEMO_STOCK_IDS, EXCHANGE_DIRECTORY, readStockList, Stock, Topics } from '@irp/proto';
import { DEMO_API_KEYS } from '../src/demo-stocks';
import { seedDemoStocks, seedSyntheticStocks } from '../src/seed';
import {
  ADMIN,
  REPORTS,
  THIS_YEAR,
  client,
  clientSave,
  db,
  eventOf,
  expectAppError,
  get,
  handled,
  healthUrl,
  history,
  outboxCount,
  requester,
  save,
  useStocksService,
} from './stocks-service.harness';

/**
 * One stock's life through the service's request topics, in order (each test builds on the stock the
 * ones before made): create with defaults and version 1, the rules' refusals, reads, versioned saves, API
 * keys, the client subset, notes, widget hits and referers, a ticker change that keeps all of it, archive.
 * Also: migrations, ping, /health and /metrics, and the demo and synthetic seeds next to those stocks.
 * Setup: stocks-service.harness.ts.
 */

describe('stocks service: saving, reading, notes, widget use, ticker change, archive and seeds', () => {
  useStocksService();
  let abc: Stock;

  it('ran its committed migrations into its own schema', async () => {
    const rows = await db.query(`SELECT name FROM stocks.migrations`);
    expect(rows.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['CreateStocks1764000000000', 'RefererCountBigint1764100000000']),
    );
    const [count] = await db.query(
      `SELECT data_type FROM information_schema.columns
       WHERE table_schema = 'stocks' AND table_name = 'referers' AND column_name = 'count'`,
    );
    expect(count.data_type).toBe('bigint');
  });

  it('answers a ping and lists the exchanges', async () => {
    const pong = await requester.request(Topics.StocksPing, {});
    expect(pong.service).toBe('stocks');
    expect(new Date(pong.at).getTime()).not.toBeNaN();
    const { exchanges } = await requester.request(Topics.StocksExchanges, {});
    expect(exchanges).toEqual(EXCHANGE_DIRECTORY);
  });

  it('creates a stock with the defaults, version 1 and a stock.upserted event keyed by its id', async () => {
    abc = await save(ADMIN, {
      ticker: ' abc ',
      companyName: 'Alpha Beta Corp',
      websiteUrl: 'abc.example.com',
    });
    expect(abc).toMatchObject({
      ticker: 'ABC',
      exchange: 'ASX',
      combinedTicker: 'ABC:ASX',
      companyName: 'Alpha Beta Corp',
      archived: false,
      pollAsx: false,
      announcementStartYear: THIS_YEAR,
      apiKey: null,
      confirmationEmail: '',
      subscriptionExpired: false,
      version: 1,
    });
    expect(Math.abs(new Date(abc.billingDate).getTime() - Date.now())).toBeLessThan(60_000);
    const event = await eventOf(Topics.StockUpserted, abc.id);
    expect(event.value).toEqual(abc);
    const versions = await history('ABC');
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ versionId: 1, changedBy: 'alice' });
    expect(versions[0].changes).toEqual(
      expect.arrayContaining([
        { fieldName: 'ticker', originalValue: null, newValue: 'ABC' },
        { fieldName: 'exchange', originalValue: null, newValue: 'ASX' },
        { fieldName: 'companyName', originalValue: null, newValue: 'Alpha Beta Corp' },
        { fieldName: 'announcementStartYear', originalValue: null, newValue: String(THIS_YEAR) },
      ]),
    );
    expect(versions[0].changes.map((c) => c.fieldName)).not.toContain('pollAsx');
  });

  it('refuses invalid stocks with the exact messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ticker: 'AB' }, 'Please define a valid ticker'],
      [{ ticker: 'AB.C' }, 'Please define a valid ticker'],
      [{ companyName: 'No ticker' }, 'Please define a valid ticker'],
      [{ ticker: 'NYS', exchange: 'NYSE' }, 'Unknown exchange NYSE: choose ASX, LSE, FSE or OTC'],
      [{ ticker: 'VOD', exchange: 'LSE' }, 'Please define a valid ISIN for LSE and FSE stocks'],
      [
        { ticker: 'SAP', exchange: 'FSE', isin: 'DE0007164601' },
        'Please define a valid ISIN for LSE and FSE stocks',
      ],
      [
        { ticker: 'EML', confirmationEmail: 'a@b.com, not-an-email' },
        'Invalid email address in Confirmation emails: not-an-email',
      ],
      [{ ticker: 'EML', moderatorEmail: 'x@y' }, 'Invalid email address in Moderator emails: x@y'],
      [
        { ticker: 'YRS', announcementStartYear: 1989 },
        `Poll start year must be between 1990 and ${THIS_YEAR + 1}`,
      ],
      [
        { ticker: 'YRS', announcementStartYear: THIS_YEAR + 2 },
        `Poll start year must be between 1990 and ${THIS_YEAR + 1}`,
      ],
      // Dates new Date() would guess at, or the database could not hold: the rule's 400, never a 500.
      [{ ticker: 'BIL', billingDate: '1' }, 'Please define a valid billing date'],
      [{ ticker: 'BIL', billingDate: 'March 5' }, 'Please define a valid billing date'],
      [{ ticker: 'BIL', billingDate: '10000-01-01' }, 'Please define a valid billing date'],
      [{ ticker: 'BIL', billingDate: '-0001-01-01' }, 'Please define a valid billing date'],
      [
        { ticker: 'FLT', autoSendFilter: 'appendix (3b' },
        'The auto-send filter is not a valid pattern: missing closing ): `appendix (3b`',
      ],
      [
        { ticker: 'FLT', autoSendFilter: '(?=.*3b)appendix' },
        'The auto-send filter is not a valid pattern: invalid or unsupported Perl syntax: `(?=`',
      ],
      [
        { ticker: 'FLT', autoSendFilter: 'a'.repeat(201) },
        'The auto-send filter is longer than 200 characters',
      ],
      [{ ticker: 'KEY', apiKey: 'not a key' }, 'An API key may contain only letters, digits, - and _'],
    ];
    for (const [fields, message] of cases) await expectAppError(save(ADMIN, fields), 'BAD_REQUEST', message);
    const lse = await save(ADMIN, { ticker: 'vod', exchange: 'lse', isin: 'GB00BH4HKS39' });
    expect(lse).toMatchObject({ combinedTicker: 'VOD:LSE', isin: 'GB00BH4HKS39' });
    // Its filter is catastrophic for a backtracking RegExp, linear for RE2 (the pollers' engine): saved.
    const filter = '^(\\w+\\s?)*$';
    const fse = await save(ADMIN, {
      ticker: 'SAP',
      exchange: 'FSE',
      isin: 'DE0007164600',
      autoSendFilter: filter,
    });
    expect(fse).toMatchObject({ combinedTicker: 'SAP:FSE', autoSendFilter: filter });
  });

  it('keeps ticker:exchange unique (409) and lets the same ticker exist on another exchange', async () => {
    await expectAppError(
      save(ADMIN, { ticker: 'abc' }),
      'CONFLICT',
      'A stock with ticker ABC already exists on ASX',
    );
    const otc = await save(ADMIN, { ticker: 'ABC', exchange: 'OTC' });
    expect(otc.combinedTicker).toBe('ABC:OTC');
  });

  it('answers 404 for unknown stocks and 403 for saves without Admin', async () => {
    await expectAppError(get('NOPE:ASX'), 'NOT_FOUND', 'Stock NOPE:ASX not found');
    await expectAppError(get('nope'), 'NOT_FOUND', 'Stock NOPE:ASX not found');
    await expectAppError(history('ZZZ:LSE'), 'NOT_FOUND', 'Stock ZZZ:LSE not found');
    await expectAppError(
      save(ADMIN, { companyName: 'x' }, { id: '99999999-9999-4999-8999-999999999999' }),
      'NOT_FOUND',
      /not found/,
    );
    await expectAppError(save(REPORTS, { ticker: 'RPT' }), 'FORBIDDEN');
  });

  it('gets, resolves and lists stocks (list: all, archived too, newest first)', async () => {
    expect(await get('abc')).toEqual(await get('ABC:ASX'));
    expect((await requester.request(Topics.StocksResolve, { combinedTicker: 'ABC:OTC' })).id).not.toBe(
      abc.id,
    );
    expect((await requester.request(Topics.StocksResolve, { combinedTicker: 'abc' })).id).toBe(abc.id);
    expect((await requester.request(Topics.StocksResolve, { combinedTicker: 'NOPE' })).id).toBeNull();
    expect((await requester.request(Topics.StocksResolve, { combinedTicker: 'A:B:C' })).id).toBeNull();
    const { stocks } = await requester.request(Topics.StocksList, {});
    expect(stocks.map((s) => s.combinedTicker)).toEqual(['ABC:OTC', 'SAP:FSE', 'VOD:LSE', 'ABC:ASX']);
    const byIds = await requester.request(Topics.StocksGetByIds, {
      ids: [abc.id, '99999999-9999-4999-8999-999999999999'],
    });
    expect(byIds.stocks).toEqual([expect.objectContaining({ id: abc.id, ticker: 'ABC' })]);
  });

  it('records a version for a save that changes something, and nothing for one that does not', async () => {
    const saved = await save(
      ADMIN,
      {
        ticker: 'abc',
        exchange: 'ASX',
        companyName: 'Alpha Beta Corporation',
        pollAsx: true,
        contactEmail: 'ir@abc.example.com',
      },
      { id: abc.id },
    );
    expect(saved).toMatchObject({ version: 2, pollAsx: true });
    // The initial poll is the announcements service's: the stock carries none of it.
    expect(saved).not.toHaveProperty('completedInitialPoll');
    const event = await eventOf(Topics.StockUpserted, abc.id, (v) => v.version === 2);
    expect(event.value).toEqual(saved);
    const [latest] = await history('ABC:ASX');
    expect(latest).toMatchObject({ versionId: 2, changedBy: 'alice' });
    expect(latest.changes).toEqual([
      { fieldName: 'companyName', originalValue: 'Alpha Beta Corp', newValue: 'Alpha Beta Corporation' },
      { fieldName: 'pollAsx', originalValue: 'false', newValue: 'true' },
      { fieldName: 'contactEmail', originalValue: null, newValue: 'ir@abc.example.com' },
    ]);
    const before = await outboxCount();
    const same = await save(ADMIN, { companyName: 'Alpha Beta Corporation', pollAsx: true }, { id: abc.id });
    expect(same.version).toBe(2);
    expect(await history('ABC:ASX')).toHaveLength(2);
    expect(await outboxCount()).toBe(before);
    abc = saved;
  });

  it('keeps the ticker and exchange fixed on save', async () => {
    await expectAppError(
      save(ADMIN, { ticker: 'ABD' }, { id: abc.id }),
      'BAD_REQUEST',
      'Use Change Ticker to change the ticker',
    );
    await expectAppError(
      save(ADMIN, { ticker: 'A' }, { id: abc.id }),
      'BAD_REQUEST',
      'Please define a valid ticker',
    );
    await expectAppError(
      save(ADMIN, { exchange: 'LSE' }, { id: abc.id }),
      'BAD_REQUEST',
      'The exchange cannot be changed once a stock is created',
    );
  });

  it('hands out unused API keys and keeps saved keys unique (409)', async () => {
    const { apiKey } = await requester.request(Topics.StocksNewApiKey, {});
    expect(apiKey).toMatch(/^[0-9a-f]{32}$/);
    expect((await requester.request(Topics.StocksNewApiKey, {})).apiKey).not.toBe(apiKey);
    abc = await save(ADMIN, { apiKey }, { id: abc.id });
    expect(abc.apiKey).toBe(apiKey);
    const vod = await get('VOD:LSE');
    await expectAppError(
      save(ADMIN, { apiKey }, { id: vod.id }),
      'CONFLICT',
      'This API key is already used by another stock',
    );
    await expectAppError(
      save(ADMIN, { ticker: 'KEY', apiKey }),
      'CONFLICT',
      'This API key is already used by another stock',
    );
  });

  it('lets a client save only its subset, with ViewConfig, and the ReplyToComment fields with that role', async () => {
    const viewer = client(abc.id, ['ViewConfig']);
    const saved = await clientSave(viewer, 'ABC', {
      companyName: 'ABC Ltd',
      confirmationEmail: 'a@abc.example.com; b@abc.example.com',
    });
    expect(saved).toMatchObject({
      companyName: 'ABC Ltd',
      confirmationEmail: 'a@abc.example.com; b@abc.example.com',
    });
    const [latest] = await history('ABC');
    expect(latest.changedBy).toBe('carl');
    expect(latest.changes.map((c) => c.fieldName)).toEqual(['companyName', 'confirmationEmail']);

    await expectAppError(
      clientSave(client(abc.id, ['EditAnnouncements']), 'ABC:ASX', { companyName: 'x' }),
      'FORBIDDEN',
      'You need the ViewConfig permission on ABC:ASX to change its settings',
    );
    await expectAppError(
      clientSave(viewer, 'ABC:ASX', { pollAsx: false }),
      'BAD_REQUEST',
      'Only an Admin may change pollAsx',
    );
    await expectAppError(
      clientSave(viewer, 'ABC:ASX', { moderatorEmail: 'mod@abc.example.com' }),
      'FORBIDDEN',
      'You need the ReplyToComment permission on ABC:ASX to change moderator emails, the company logo or the comment template',
    );
    await expectAppError(
      clientSave(viewer, 'ABC:ASX', { contactEmail: 'nope' }),
      'BAD_REQUEST',
      'Invalid email address in Contact emails: nope',
    );
    // Values sent back unchanged are not changes.
    await expect(
      clientSave(viewer, 'ABC:ASX', { pollAsx: true, ticker: 'ABC', moderatorEmail: '' }),
    ).resolves.toMatchObject({ version: saved.version });

    const replier = client(abc.id, ['ViewConfig', 'ReplyToComment']);
    const withTemplate = await clientSave(replier, 'ABC:ASX', {
      moderatorEmail: 'mod@abc.example.com',
      companyLogoUrl: 'https://abc.example.com/logo.png',
      announcementCommentTemplate: 'Dear {name},\n\nThanks.',
    });
    expect(withTemplate).toMatchObject({
      moderatorEmail: 'mod@abc.example.com',
      announcementCommentTemplate: 'Dear {name},\n\nThanks.',
    });
    await expectAppError(
      clientSave(replier, 'NOPE:ASX', { companyName: 'x' }),
      'NOT_FOUND',
      'Stock NOPE:ASX not found',
    );
    abc = withTemplate;
  });

  it('keeps notes, newest first', async () => {
    const first = await requester.request(Topics.StocksSaveNote, {
      actor: ADMIN,
      combinedTicker: 'ABC',
      details: 'Signed up',
    });
    await new Promise((r) => setTimeout(r, 20));
    const second = await requester.request(Topics.StocksSaveNote, {
      actor: ADMIN,
      combinedTicker: 'ABC:ASX',
      details: 'Renewed',
    });
    expect(second.note).toMatchObject({ user: 'alice', details: 'Renewed' });
    const { notes } = await requester.request(Topics.StocksNotes, { combinedTicker: 'ABC' });
    expect(notes.map((n) => n.id)).toEqual([second.note.id, first.note.id]);
    await expectAppError(
      requester.request(Topics.StocksSaveNote, { actor: ADMIN, combinedTicker: 'ABC', details: '  ' }),
      'BAD_REQUEST',
      'Please enter the note details',
    );
    await expectAppError(
      requester.request(Topics.StocksSaveNote, { actor: REPORTS, combinedTicker: 'ABC', details: 'x' }),
      'FORBIDDEN',
    );
    await expectAppError(requester.request(Topics.StocksNotes, { combinedTicker: 'NOPE' }), 'NOT_FOUND');
  });

  it('records widget hits and referers in one cheap lookup; unknown keys are refused', async () => {
    // Resolving a stock by its product API key (a signed-in route naming its stock by the key) records no
    // hit: the count below is the widget lookups' alone.
    expect((await requester.request(Topics.StocksResolve, { apiKey: abc.apiKey! })).id).toBe(abc.id);
    expect((await requester.request(Topics.StocksResolve, { apiKey: ` ${abc.apiKey!} ` })).id).toBe(abc.id);
    expect((await requester.request(Topics.StocksResolve, { apiKey: 'not-a-key' })).id).toBeNull();
    await expectAppError(
      requester.request(Topics.StocksWidgetLookup, { apiKey: 'not-a-key' }),
      'UNAUTHENTICATED',
      'Unknown API key',
    );
    const page = 'https://abc.example.com/investors';
    const first = await requester.request(Topics.StocksWidgetLookup, { apiKey: abc.apiKey!, referer: page });
    expect(first).toEqual({
      stockId: abc.id,
      archived: false,
      subscriptionExpired: false,
      stock: {
        ticker: 'ABC',
        exchange: 'ASX',
        combinedTicker: 'ABC:ASX',
        isin: '',
        companyName: 'ABC Ltd',
        websiteUrl: 'abc.example.com',
        companyLogoUrl: 'https://abc.example.com/logo.png',
      },
    });
    const [{ first: firstSeen }] = await db.query(`SELECT first FROM stocks.referers WHERE url = $1`, [page]);
    await new Promise((r) => setTimeout(r, 20));
    await requester.request(Topics.StocksWidgetLookup, { apiKey: abc.apiKey!, referer: page });
    await requester.request(Topics.StocksWidgetLookup, { apiKey: abc.apiKey! });
    await requester.request(Topics.StocksWidgetLookup, {
      apiKey: abc.apiKey!,
      referer: 'https://abc.example.com/',
    });

    const referers = await requester.request(Topics.StocksReferers, { combinedTicker: 'ABC' });
    expect(referers).toMatchObject({ ticker: 'ABC', exchange: 'ASX', combinedTicker: 'ABC:ASX', hits: 4 });
    expect(referers.referers.map((r) => [r.url, r.count])).toEqual([
      ['https://abc.example.com/', 1],
      [page, 2],
    ]);
    const investors = referers.referers[1];
    expect(investors.first).toBe(firstSeen.toISOString());
    expect(new Date(investors.last).getTime()).toBeGreaterThan(new Date(investors.first).getTime());

    const all = await requester.request(Topics.StocksAllReferers, {});
    expect(all.stocks.map((s) => s.combinedTicker)).toEqual(['ABC:ASX', 'ABC:OTC', 'SAP:FSE', 'VOD:LSE']);
    expect(all.stocks[0]).toEqual(referers);
    expect(all.stocks[1]).toMatchObject({ hits: 0, referers: [] });
  });

  it('keeps referers bounded: URLs cut to 200 characters, at most 200 pages a stock, then (other)', async () => {
    const { apiKey } = await requester.request(Topics.StocksNewApiKey, {});
    const sap = await save(ADMIN, { apiKey }, { id: (await get('SAP:FSE')).id });
    const lookup = (referer: string) => requester.request(Topics.StocksWidgetLookup, { apiKey, referer });
    const long = `https://sap.example.com/${'x'.repeat(300)}`;
    await lookup(long);
    const pages = async (): Promise<Array<[string, number]>> =>
      (
        await db.query(`SELECT url, count FROM stocks.referers WHERE stock_id = $1 ORDER BY last DESC`, [
          sap.id,
        ])
      ).map((r: { url: string; count: string }) => [r.url, Number(r.count)] as [string, number]);
    expect(await pages()).toEqual([[long.slice(0, 200), 1]]);

    // 198 more pages seen yesterday (as the seed writes them), then the 200th page through the lookup.
    await db.query(
      `INSERT INTO stocks.referers (stock_id, url, count, first, last)
       SELECT $1, 'https://sap.example.com/p' || n, 1, now() - interval '1 day', now() - interval '1 day' - n * interval '1 second'
       FROM generate_series(1, 198) AS n`,
      [sap.id],
    );
    await lookup('https://sap.example.com/page-200');
    expect(await pages()).toHaveLength(200);
    // Full: new pages are counted under one (other) row; recorded pages still on their own rows.
    await lookup('https://sap.example.com/new-1');
    await lookup('https://sap.example.com/new-2');
    await lookup('https://sap.example.com/p5');
    await lookup(long);
    const rows = await pages();
    expect(rows).toHaveLength(201);
    expect(rows.slice(0, 4)).toEqual([
      [long.slice(0, 200), 2],
      ['https://sap.example.com/p5', 2],
      ['(other)', 2],
      ['https://sap.example.com/page-200', 1],
    ]);
    expect(rows.map((r) => r[0])).not.toContain('https://sap.example.com/new-1');

    // The reads are bounded: one stock's report has every row, the all-stocks report its 50 latest.
    const one = await requester.request(Topics.StocksReferers, { combinedTicker: 'SAP:FSE' });
    expect(one.referers).toHaveLength(201);
    expect(one.referers.map((r) => [r.url, r.count])).toEqual(rows);
    expect(one.hits).toBe(6);
    const all = await requester.request(Topics.StocksAllReferers, {});
    const inAll = all.stocks.find((st) => st.combinedTicker === 'SAP:FSE')!;
    expect(inAll.referers).toEqual(one.referers.slice(0, 50));

    // count is a bigint: a page past 2^31 views keeps counting.
    await db.query(`UPDATE stocks.referers SET count = 3000000000 WHERE stock_id = $1 AND url = $2`, [
      sap.id,
      'https://sap.example.com/p5',
    ]);
    await lookup('https://sap.example.com/p5');
    const again = await requester.request(Topics.StocksReferers, { combinedTicker: 'SAP:FSE' });
    expect(again.referers[0]).toMatchObject({ url: 'https://sap.example.com/p5', count: 3000000001 });
  });

  it('changes a ticker keeping id, notes, history and referers, and publishes stock.ticker-changed', async () => {
    await expectAppError(
      requester.request(Topics.StocksChangeTicker, {
        actor: ADMIN,
        exchange: 'ASX',
        ticker: 'ABC',
        newTicker: ' abc ',
      }),
      'BAD_REQUEST',
      'The new ticker is the same as the current one',
    );
    await expectAppError(
      requester.request(Topics.StocksChangeTicker, {
        actor: ADMIN,
        exchange: 'ASX',
        ticker: 'ABC',
        newTicker: 'A-B',
      }),
      'BAD_REQUEST',
      'Please define a valid ticker',
    );
    await expectAppError(
      requester.request(Topics.StocksChangeTicker, {
        actor: ADMIN,
        exchange: 'OTC',
        ticker: 'ABC',
        newTicker: 'abc',
      }),
      'BAD_REQUEST',
      'The new ticker is the same as the current one',
    );
    await save(ADMIN, { ticker: 'XYZ', exchange: 'OTC' });
    await expectAppError(
      requester.request(Topics.StocksChangeTicker, {
        actor: ADMIN,
        exchange: 'otc',
        ticker: 'abc',
        newTicker: 'xyz',
      }),
      'CONFLICT',
      'A stock with ticker XYZ already exists on OTC',
    );
    await expectAppError(
      requester.request(Topics.StocksChangeTicker, {
        actor: ADMIN,
        exchange: 'ASX',
        ticker: 'NOPE',
        newTicker: 'NEW',
      }),
      'NOT_FOUND',
      'Stock NOPE:ASX not found',
    );
    await expectAppError(
      requester.request(Topics.StocksChangeTicker, {
        actor: REPORTS,
        exchange: 'ASX',
        ticker: 'ABC',
        newTicker: 'ABD',
      }),
      'FORBIDDEN',
    );

    const versionsBefore = await history('ABC');
    const { stock } = await requester.request(Topics.StocksChangeTicker, {
      actor: ADMIN,
      exchange: 'asx',
      ticker: 'abc',
      newTicker: 'abd',
    });
    expect(stock).toMatchObject({
      id: abc.id,
      ticker: 'ABD',
      combinedTicker: 'ABD:ASX',
      version: abc.version + 1,
    });
    await expectAppError(get('ABC'), 'NOT_FOUND', 'Stock ABC:ASX not found');
    const versions = await history('ABD');
    expect(versions).toHaveLength(versionsBefore.length + 1);
    expect(versions[0]).toMatchObject({
      versionId: stock.version,
      changedBy: 'alice',
      changes: [{ fieldName: 'ticker', originalValue: 'ABC', newValue: 'ABD' }],
    });
    expect((await requester.request(Topics.StocksNotes, { combinedTicker: 'ABD' })).notes).toHaveLength(2);
    expect((await requester.request(Topics.StocksReferers, { combinedTicker: 'ABD' })).hits).toBe(4);
    expect((await requester.request(Topics.StocksWidgetLookup, { apiKey: abc.apiKey! })).stock.ticker).toBe(
      'ABD',
    );

    const changed = await eventOf(Topics.StockTickerChanged, abc.id);
    expect(changed.value).toMatchObject({
      id: abc.id,
      exchange: 'ASX',
      oldTicker: 'ABC',
      newTicker: 'ABD',
      oldCombinedTicker: 'ABC:ASX',
      newCombinedTicker: 'ABD:ASX',
      changedBy: 'alice',
    });
    const upserted = await eventOf(Topics.StockUpserted, abc.id, (v) => v.version === stock.version);
    expect(upserted.value).toEqual(stock);
    abc = stock;
  });

  it('archives and unarchives (absent toggles), records versions and publishes stock.archived', async () => {
    const archive = (extra: Record<string, unknown> = {}) =>
      requester
        .request(Topics.StocksArchive, { actor: ADMIN, exchange: 'ASX', ticker: 'ABD', ...extra })
        .then((r) => r.stock);
    const archived = await archive();
    expect(archived).toMatchObject({ archived: true, version: abc.version + 1 });
    const event = await eventOf(Topics.StockArchived, abc.id, (v) => v.archived === true);
    expect(event.value).toMatchObject({
      id: abc.id,
      combinedTicker: 'ABD:ASX',
      archived: true,
      changedBy: 'alice',
    });
    expect((await history('ABD'))[0].changes).toEqual([
      { fieldName: 'archived', originalValue: 'false', newValue: 'true' },
    ]);
    // Still listed, and the widget lookup tells the gateway it is archived.
    expect(
      (await requester.request(Topics.StocksList, {})).stocks.find((s) => s.id === abc.id)?.archived,
    ).toBe(true);
    expect((await requester.request(Topics.StocksWidgetLookup, { apiKey: abc.apiKey! })).archived).toBe(true);

    const same = await archive({ archived: true });
    expect(same.version).toBe(archived.version);
    const unarchived = await archive();
    expect(unarchived).toMatchObject({ archived: false, version: archived.version + 1 });
    // The list (which the service keeps between changes) shows every change at once.
    expect(
      (await requester.request(Topics.StocksList, {})).stocks.find((s) => s.id === abc.id)?.archived,
    ).toBe(false);
    await eventOf(Topics.StockArchived, abc.id, (v) => v.archived === false);
    await expectAppError(
      requester.request(Topics.StocksArchive, { actor: REPORTS, exchange: 'ASX', ticker: 'ABD' }),
      'FORBIDDEN',
    );
    abc = unarchived;
  });

  it('keeps no initial-poll state: turning polling off and on is a plain versioned save', async () => {
    const off = await save(ADMIN, { pollAsx: false }, { id: abc.id });
    const on = await save(ADMIN, { pollAsx: true }, { id: abc.id });
    expect(on).toMatchObject({ pollAsx: true, version: off.version + 1 });
    expect(on).not.toHaveProperty('completedInitialPoll');
    const columns: Array<{ column_name: string }> = await db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'stocks' AND table_name = 'stocks'`,
    );
    expect(columns.map((c) => c.column_name)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/initial_poll/)]),
    );
    abc = await get('ABD');
  });

  it('serves /health and /metrics', async () => {
    const health = await fetch(`${healthUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, kafka: { status: 'up' } },
    });
    expect(await handled(Topics.StocksSave)).toBeGreaterThan(0);
  });

  it('seeds the demo stocks idempotently, refuses in production, and bulk-creates synthetic stocks', async () => {
    await seedDemoStocks({ ...process.env });
    const countAfterFirst = (await requester.request(Topics.StocksList, {})).stocks.length;
    await seedDemoStocks({ ...process.env });
    const { stocks } = await requester.request(Topics.StocksList, {});
    expect(stocks.length).toBe(countAfterFirst);
    const ours = ['ABD:ASX', 'ABC:OTC', 'SAP:FSE', 'VOD:LSE', 'XYZ:OTC'];
    const demo = stocks.filter((s) => !ours.includes(s.combinedTicker));
    expect(demo.length).toBeGreaterThanOrEqual(10);
    expect(demo.filter((s) => s.exchange === 'ASX').length).toBeGreaterThanOrEqual(6);
    expect(demo.some((s) => s.archived)).toBe(true);
    expect(demo.some((s) => s.subscriptionExpired)).toBe(true);
    expect(demo.some((s) => s.pollAsx)).toBe(true);

    const bhp = await get('BHP');
    expect(bhp.id).toBe(DEMO_STOCK_IDS[0]);
    expect(bhp).toMatchObject({ apiKey: DEMO_API_KEYS.BHP, pollAsx: true });
    expect(bhp.announcementCommentTemplate).not.toBe('');
    // VOD:LSE exists from the tests above, so the demo LSE stock with the second fixed id is skipped here.
    expect((await history('BHP')).length).toBeGreaterThan(2);
    expect((await history('BHP')).some((v) => v.changedBy === 'client')).toBe(true);
    expect(
      (await requester.request(Topics.StocksNotes, { combinedTicker: 'BHP' })).notes.length,
    ).toBeGreaterThan(1);
    const bhpReferers = await requester.request(Topics.StocksReferers, { combinedTicker: 'BHP' });
    expect(bhpReferers.referers.length).toBeGreaterThan(1);
    expect(bhpReferers.hits).toBeGreaterThan(1000);
    // Production (with a secret of its own: the repository's development one is refused first).
    await expect(
      seedDemoStocks({
        ...process.env,
        NODE_ENV: 'production',
        ACTOR_SIGNING_SECRET: 'stocks-seed-test-actor-secret-0123456789',
      }),
    ).rejects.toThrow(/Refusing to seed/);

    expect(await seedSyntheticStocks(db, 30, 12)).toBe(30);
    expect(await seedSyntheticStocks(db, 30)).toBe(0);
    const synthetic = (await requester.request(Topics.StocksList, {})).stocks.filter((s) =>
      s.ticker.startsWith('SYN'),
    );
    expect(synthetic).toHaveLength(30);
    expect(synthetic.some((s) => s.exchange === 'LSE' && s.isin.length === 12)).toBe(true);
    expect(await history('SYN00007:LSE')).toEqual([
      expect.objectContaining({ versionId: 1, changedBy: 'seed' }),
    ]);
    const syn = synthetic.find((s) => s.ticker === 'SYN00007')!;
    const event = await eventOf(Topics.StockUpserted, syn.id);
    expect(event.value).toEqual(syn);
  });

  it('lists every stock in pages: newest first, none twice or missed while a stock is created mid-walk', async () => {
    const whole = (await requester.request(Topics.StocksList, { limit: 5000 })).stocks;
    expect(whole.length).toBeGreaterThan(40);
    expect(whole.map((s) => [s.created, s.id])).toEqual(
      [...whole]
        .sort((a, b) =>
          a.created === b.created ? a.id.localeCompare(b.id) : b.created.localeCompare(a.created),
        )
        .map((s) => [s.created, s.id]),
    );
    // Pages of 7, with a stock created after the second page: it sorts first, so this walk does not see it.
    let created: Stock | undefined;
    let pages = 0;
    const walked = await readStockList(async (request) => {
      const page = await requester.request(Topics.StocksList, request);
      expect(page.stocks.length).toBeLessThanOrEqual(7);
      if (++pages === 2) created = await save(ADMIN, { ticker: 'PGW', companyName: 'Paged Walk Ltd' });
      return page;
    }, 7);
    expect(pages).toBe(Math.ceil(whole.length / 7));
    expect(walked.map((s) => s.id)).toEqual(whole.map((s) => s.id));
    const after = (await requester.request(Topics.StocksList, { limit: 5000 })).stocks;
    expect(after[0].id).toBe(created!.id);
    expect(after.slice(1).map((s) => s.id)).toEqual(whole.map((s) => s.id));
    // The last page says so; a cursor past a stock that is not listed starts at the next that sorts after it.
    const last = await requester.request(Topics.StocksList, {
      after: { created: after.at(-2)!.created, id: after.at(-2)!.id },
    });
    expect(last).toEqual({ stocks: [after.at(-1)], next: null });
    const missing = {
      created: after[3].created,
      id: after[3].id.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
    };
    const fromMissing = (await requester.request(Topics.StocksList, { after: missing, limit: 2 })).stocks;
    expect(fromMissing.map((s) => s.id)).toEqual(
      after
        .filter((s) => s.created < missing.created || (s.created === missing.created && s.id > missing.id))
        .slice(0, 2)
        .map((s) => s.id),
    );
    await expectAppError(requester.request(Topics.StocksList, { limit: 5001 }), 'BAD_REQUEST', /limit/);
  });
});
