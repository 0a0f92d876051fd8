import { Actor, GlobalRole } from '@irp/proto';
import { DataSource } from 'typeorm';
import { AnnouncementEntity } from '../stored-announcements/announcement.entity';
import { StockProjectionEntity } from '../stocks/stock-projection.entity';
import { PostComment } from './post-comment';
import { RespondToComment } from './respond-to-comment';

/** The seed's moderator: responses in the demo read as an admin's. */
const DEMO_MODERATOR: Actor = {
  id: '00000000-0000-4000-8000-00000000c0de',
  username: 'admin',
  roles: [GlobalRole.Admin],
  stockRoles: {},
};

interface DemoComment {
  name: string;
  email: string;
  comment: string;
  /** Which of the stock's latest announcements (0 = newest). */
  on: number;
  response?: { comment: string; isPublic: boolean };
}

/**
 * Investors' questions on the demo stocks' latest announcements: plain ones and ones the moderation screen
 * flags (undisclosed information, another listed company, contact details), some answered publicly, one
 * privately, some waiting. They go through PostComment and RespondToComment like widget posts, so the flags are the screen's.
 */
const DEMO_COMMENTS: Record<string, DemoComment[]> = {
  BHP: [
    {
      name: 'Jordan Lee',
      email: 'jordan.lee@investor.example',
      comment:
        'Could you explain how copper production in this report compares with the same period last year?',
      on: 0,
      response: {
        comment:
          'Thank you for your question. Copper production for the period is compared with the prior period on page 2 of the report, with the drivers of the change set out beneath the table.',
        isPublic: true,
      },
    },
    {
      name: 'Morgan Hale',
      email: 'morgan.hale@investor.example',
      comment: 'Is the company in talks about a takeover of another miner? There are rumours of an approach.',
      on: 0,
    },
    {
      name: 'Casey Tran',
      email: 'casey.tran@investor.example',
      comment: 'How does your iron ore cost per tonne compare with Rio Tinto and Fortescue?',
      on: 1,
    },
    {
      name: 'Riley Chen',
      email: 'riley.chen@investor.example',
      comment: 'Great update. Please call me on 0412 345 678 to talk about a larger holding.',
      on: 1,
      response: {
        comment:
          'Thank you. Our investor relations team will be in touch directly; we do not publish contact details.',
        isPublic: false,
      },
    },
  ],
  CBA: [
    {
      name: 'Alex Morgan',
      email: 'alex.morgan@investor.example',
      comment: 'Will the dividend be increased at the half-year result next month?',
      on: 0,
      response: {
        comment:
          'The Board determines dividends with each result and announces them to the ASX at that time. We are unable to comment ahead of that announcement.',
        isPublic: true,
      },
    },
    {
      name: 'Sam Patel',
      email: 'sam.patel@investor.example',
      comment: 'When will the annual report be mailed to shareholders who asked for a printed copy?',
      on: 0,
    },
  ],
  CSL: [
    {
      name: 'Jamie Wong',
      email: 'jamie.wong@investor.example',
      comment: 'Where can I find the webcast of the investor briefing referred to in this announcement?',
      on: 0,
      response: {
        comment: 'The webcast is on the Investors page of our website under Presentations.',
        isPublic: true,
      },
    },
  ],
};

/**
 * Seeds the demo comments on the demo stocks that have none yet (idempotent: a stock with any comment is
 * left as it is). Returns how many comments were stored.
 */
export async function seedDemoComments(
  dataSource: DataSource,
  posting: PostComment,
  responding: RespondToComment,
): Promise<number> {
  let stored = 0;
  for (const [ticker, demo] of Object.entries(DEMO_COMMENTS)) {
    const stock = await dataSource
      .getRepository(StockProjectionEntity)
      .findOne({ where: { ticker, exchange: 'ASX' }, order: { updatedAt: 'DESC' } });
    if (!stock) continue;
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM announcements.comments WHERE stock_id = $1`,
      [stock.id],
    );
    if (n > 0) continue;
    const latest = await dataSource.getRepository(AnnouncementEntity).find({
      where: { stockId: stock.id },
      order: { releasedAt: 'DESC' },
      take: 2,
    });
    for (const c of demo) {
      const announcement = latest[c.on] ?? latest[0];
      if (!announcement || announcement.deletedOn) continue;
      const { guid } = await posting.post({
        stockId: stock.id,
        sendGuid: announcement.sendGuid,
        name: c.name,
        email: c.email,
        comment: c.comment,
      });
      if (c.response) await responding.respond({ actor: DEMO_MODERATOR, guid, ...c.response });
      stored += 1;
    }
  }
  return stored;
}
