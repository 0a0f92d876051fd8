import 'reflect-metadata';
import { createLogger, runMain } from '@irp/platform';
import { combinedTickerOf } from '@irp/proto';
import { DataSource, In } from 'typeorm';
import { announcementsService } from './app.module';
import { PostComment } from './comments/post-comment';
import { RespondToComment } from './comments/respond-to-comment';
import { seedDemoComments } from './comments/demo-comments';
import { AnnouncementStore } from './ingestion/announcement-store';
import { RecordDemoInitialPoll } from './initial-poll/record-demo-initial-poll';
import { StartInitialPoll } from './initial-poll/start-initial-poll';
import { sydneyYear } from './ingestion/poll-rules';
import { SourceProvider } from './ingestion/source-provider';
import { StockProjectionEntity } from './stocks/stock-projection.entity';

const log = createLogger('seed');

/**
 * The demo stocks with Poll on (services/stocks/src/demo-stocks.ts): their recent announcements are seeded,
 * and their initial poll as this service keeps it: completed, or running (PLS: a real run is started, which
 * shows 'Sync in Progress' with its progress until a poller has read its years).
 */
export const DEMO_INITIAL_POLLS = {
  BHP: 'completed',
  CBA: 'completed',
  CSL: 'completed',
  PLS: 'running',
} as const;
export const DEMO_POLLED_TICKERS = Object.keys(DEMO_INITIAL_POLLS) as Array<keyof typeof DEMO_INITIAL_POLLS>;

/** How far back the seeded announcements go. */
const SEED_DAYS = 2 * 365;

async function waitForProjection(dataSource: DataSource, combinedTickers: string[], timeoutMs: number) {
  const repo = dataSource.getRepository(StockProjectionEntity);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await repo.find({ where: { combinedTicker: In(combinedTickers) } });
    if (found.length === combinedTickers.length || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Stores the last two years of announcements of the polled demo stocks, with their PDFs, as an initial
 * poll would (origin 'initial-poll': nothing is sent). They come from the source the system settings
 * choose: with `make up` the ASX stand-in, which holds the mock generator's history of these tickers, so
 * the natural keys are the ones live polling sees and the first poll finds them stored. Idempotent.
 * Waits (up to `timeoutMs`) for the running service to have filled its stock projection. Then seeds the
 * demo comments on the latest announcements (comments/demo-comments.ts).
 */
export async function seedDemoAnnouncements(
  env: NodeJS.ProcessEnv = process.env,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<{ stored: number; comments: number; stocks: string[] }> {
  if (announcementsService.loadConfig(env).NODE_ENV === 'production')
    throw new Error('Refusing to seed demo announcements when NODE_ENV=production');
  const app = await announcementsService.context(env);
  try {
    const dataSource = app.get(DataSource);
    const wanted = DEMO_POLLED_TICKERS.map((t) => combinedTickerOf(t, 'ASX'));
    const stocks = await waitForProjection(dataSource, wanted, timeoutMs);
    const missing = wanted.filter((c) => !stocks.some((s) => s.combinedTicker === c));
    if (missing.length)
      log.warn(
        { missing },
        'demo stocks not in the projection (is the stocks seed done?); seeding the others',
      );
    const source = await app.get(SourceProvider).get();
    const store = app.get(AnnouncementStore);
    const demoInitialPolls = app.get(RecordDemoInitialPoll);
    const initialPolls = app.get(StartInitialPoll);
    const now = new Date();
    const from = now.getTime() - SEED_DAYS * 86_400_000;
    const thisYear = sydneyYear(now);
    let stored = 0;
    for (const stock of stocks) {
      const items = [];
      for (let year = sydneyYear(new Date(from)); year <= thisYear; year++)
        items.push(...(await source.announcementsOfYear(stock.ticker, year)));
      const recent = items.filter((i) => new Date(i.releasedAt).getTime() >= from);
      const inserted = await store.storeDetected(stock, recent, 'initial-poll');
      const files = await store.downloadPending(stock, source);
      stored += inserted.length;
      const status = DEMO_INITIAL_POLLS[stock.ticker as keyof typeof DEMO_INITIAL_POLLS];
      if (status === 'completed') await demoInitialPolls.recordCompleted(stock, inserted.length);
      else if (status === 'running') await initialPolls.start(stock, { supersede: true });
      log.info(
        { stock: stock.combinedTicker, source: source.name, inserted: inserted.length, files },
        'demo announcements seeded',
      );
    }
    const comments = await seedDemoComments(dataSource, app.get(PostComment), app.get(RespondToComment));
    return { stored, comments, stocks: stocks.map((s) => s.combinedTicker) };
  } finally {
    await app.close();
  }
}

if (require.main === module)
  runMain(() =>
    seedDemoAnnouncements().then((r) => {
      log.info(r, 'demo announcements seeded');
      process.exit(0);
    }),
  );
