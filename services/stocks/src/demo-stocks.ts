import {
  Actor,
  DEMO_STOCK_IDS,
  GlobalRole,
  STANDARD_AUTO_SEND_FILTER,
  StockFields,
  StockRole,
} from '@irp/proto';

/** Who the demo history says made the changes (the demo users of services/users/src/demo-users.ts). */
export const DEMO_ADMIN: Actor = {
  id: '00000000-0000-4000-8000-0000000000a1',
  username: 'admin',
  roles: [GlobalRole.Admin],
  stockRoles: {},
};
export const DEMO_CLIENT: Actor = {
  id: '00000000-0000-4000-8000-0000000000c1',
  username: 'client',
  roles: [],
  stockRoles: {
    [DEMO_STOCK_IDS[0]]: [StockRole.ViewConfig, StockRole.ReplyToComment],
    [DEMO_STOCK_IDS[1]]: [StockRole.ViewConfig],
  },
};

/** Fixed API keys of the demo stocks that have one, so the widget API can be tried at once. */
export const DEMO_API_KEYS = {
  BHP: '3f9c2a7e5b1d48c6a0e4f7b2d9c1e8a5',
  VOD: '8d4e1b6f2a9c47e3b5d0a1f6c8e2b7d4',
} as const;

const COMMENT_TEMPLATE = `Dear {name},

Thank you for your question about "{headline}". Our investor relations team has reviewed it and
responds below.

Kind regards,
Investor Relations`;

export interface DemoStock {
  /** Fixed id (the users seed gives the demo client roles on these). */
  id?: string;
  /** How long ago it became a client. */
  createdDaysAgo: number;
  fields: StockFields;
  /** Later saves, each a version in the history: [who, fields]. */
  edits?: Array<[Actor, 'admin' | 'client', StockFields]>;
  archived?: boolean;
  notes?: Array<[daysAgo: number, details: string]>;
  /** Widget usage: pages embedding it and [page, count, firstDaysAgo, lastDaysAgo]. */
  referers?: Array<[url: string, count: number, firstDaysAgo: number, lastDaysAgo: number]>;
  /** Widget requests per day over the last 30 days (varied around this). */
  dailyHits?: number;
}

/** A dozen stocks across ASX, LSE, FSE and OTC with the variety the screens need. */
export const DEMO_STOCKS: DemoStock[] = [
  {
    id: DEMO_STOCK_IDS[0],
    createdDaysAgo: 900,
    fields: {
      ticker: 'BHP',
      exchange: 'ASX',
      companyName: 'BHP Group Limited',
      websiteUrl: 'https://www.bhp.com',
      confirmationEmail: 'investor.relations@bhp.example.com',
      contactEmail: 'ir.contact@bhp.example.com',
      accountingReference: 'BHP-2023-001',
      announcementStartYear: 2018,
      apiKey: DEMO_API_KEYS.BHP,
    },
    edits: [
      [
        DEMO_ADMIN,
        'admin',
        {
          pollAsx: true,
          sendPriceSensitiveAnnouncements: true,
          sendNonPriceSensitiveAnnouncements: true,
        },
      ],
      [
        DEMO_ADMIN,
        'admin',
        {
          autoSendAnnouncementEmail: true,
          autoSendFilter: STANDARD_AUTO_SEND_FILTER,
          announcementNotificationEmails: 'ir@bhp.example.com; company.secretary@bhp.example.com',
        },
      ],
      [
        DEMO_CLIENT,
        'client',
        {
          moderatorEmail: 'moderator@bhp.example.com',
          companyLogoUrl: 'https://www.bhp.com/logo.svg',
          announcementCommentTemplate: COMMENT_TEMPLATE,
        },
      ],
    ],
    notes: [
      [420, 'Signed the three-year renewal. Wants price-sensitive announcements by email within 5 minutes.'],
      [60, 'Asked for the comment moderation feature; enabled ReplyToComment for their IR manager.'],
      [3, 'Website redesign going live next month; widget stays on the investor centre pages.'],
    ],
    referers: [
      ['https://www.bhp.com/investors', 18342, 800, 0],
      ['https://www.bhp.com/investors/announcements', 9631, 700, 0],
      ['https://www.bhp.com/media-and-insights', 2210, 300, 2],
      ['https://staging.bhp.example.com/investors', 57, 40, 38],
    ],
    dailyHits: 420,
  },
  {
    id: DEMO_STOCK_IDS[1],
    createdDaysAgo: 610,
    fields: {
      ticker: 'VOD',
      exchange: 'LSE',
      isin: 'GB00BH4HKS39',
      companyName: 'Vodafone Group Plc',
      websiteUrl: 'https://investors.vodafone.com',
      confirmationEmail: 'ir@vodafone.example.com',
      contactEmail: 'ir@vodafone.example.com',
      sendPriceSensitiveAnnouncements: true,
      apiKey: DEMO_API_KEYS.VOD,
    },
    edits: [
      [DEMO_ADMIN, 'admin', { accountingReference: 'VOD-UK-17' }],
      [
        DEMO_CLIENT,
        'client',
        { websiteUrl: 'https://investors.vodafone.com/en', companyName: 'Vodafone Group Plc' },
      ],
    ],
    notes: [[200, 'LSE client: announcements come from the RNS feed, so polling stays off.']],
    referers: [
      ['https://investors.vodafone.com/en', 5120, 500, 0],
      ['https://investors.vodafone.com/en/shareholder-centre', 1304, 350, 1],
    ],
    dailyHits: 140,
  },
  {
    createdDaysAgo: 1200,
    fields: {
      ticker: 'CBA',
      exchange: 'ASX',
      companyName: 'Commonwealth Bank of Australia',
      websiteUrl: 'https://www.commbank.com.au/about-us/investors.html',
      confirmationEmail: 'shareholder@cba.example.com.au',
      pollAsx: true,
      sendPriceSensitiveAnnouncements: true,
      announcementStartYear: 2015,
    },
    edits: [[DEMO_ADMIN, 'admin', { contactEmail: 'ir.team@cba.example.com.au', disableMarketData: true }]],
    notes: [[30, 'Market data feed disabled at their request; they show their own share price widget.']],
  },
  {
    createdDaysAgo: 480,
    fields: {
      ticker: 'CSL',
      exchange: 'ASX',
      companyName: 'CSL Limited',
      websiteUrl: 'www.csl.com',
      confirmationEmail: 'investor.relations@csl.example.com',
      pollAsx: true,
      sendPriceSensitiveAnnouncements: true,
      sendNonPriceSensitiveAnnouncements: true,
      autoSendAnnouncementEmail: true,
      autoSendNonPriceSensitiveAnnouncements: true,
    },
  },
  {
    createdDaysAgo: 1500,
    fields: {
      ticker: 'WES',
      exchange: 'ASX',
      companyName: 'Wesfarmers Limited',
      websiteUrl: 'https://www.wesfarmers.com.au/investor-centre',
      contactEmail: 'info@wesfarmers.example.com.au',
      subscriptionExpired: true,
    },
    notes: [[95, 'Subscription lapsed; invoice reminder sent twice. Keep the data until they decide.']],
  },
  {
    createdDaysAgo: 2,
    fields: {
      ticker: 'PLS',
      exchange: 'ASX',
      companyName: 'Pilbara Minerals Limited',
      websiteUrl: 'https://pls.com',
      confirmationEmail: 'ir@pls.example.com',
      pollAsx: true,
      sendPriceSensitiveAnnouncements: true,
      announcementStartYear: 2020,
    },
  },
  {
    createdDaysAgo: 2000,
    fields: {
      ticker: 'OZL',
      exchange: 'ASX',
      companyName: 'OZ Minerals Limited',
      websiteUrl: 'https://www.ozminerals.com',
    },
    archived: true,
    notes: [[700, 'Acquired by BHP and delisted; archived.']],
  },
  {
    createdDaysAgo: 330,
    fields: {
      ticker: 'WOW',
      exchange: 'ASX',
      companyName: 'Woolworths Group Limited',
      websiteUrl: 'https://www.woolworthsgroup.com.au/au/en/investors.html',
      confirmationEmail:
        'investor.relations@woolworths.example.com.au, company.secretary@woolworths.example.com.au',
    },
  },
  {
    createdDaysAgo: 250,
    fields: {
      ticker: 'AZN',
      exchange: 'LSE',
      isin: 'GB0009895292',
      companyName: 'AstraZeneca PLC',
      websiteUrl: 'https://www.astrazeneca.com/investor-relations.html',
      contactEmail: 'ir@astrazeneca.example.com',
    },
  },
  {
    createdDaysAgo: 180,
    fields: {
      ticker: 'SAP',
      exchange: 'FSE',
      isin: 'DE0007164600',
      companyName: 'SAP SE',
      websiteUrl: 'https://www.sap.com/investors',
      contactEmail: 'investor@sap.example.com',
    },
  },
  {
    createdDaysAgo: 90,
    fields: {
      ticker: 'SIE',
      exchange: 'FSE',
      isin: 'DE0007236101',
      companyName: 'Siemens AG',
      websiteUrl: 'https://www.siemens.com/investor',
    },
  },
  {
    createdDaysAgo: 45,
    fields: {
      ticker: 'NSRGY',
      exchange: 'OTC',
      companyName: 'Nestlé S.A. (ADR)',
      websiteUrl: 'https://www.nestle.com/investors',
      contactEmail: 'ir@nestle.example.com',
    },
  },
];
