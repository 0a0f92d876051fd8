import type { BrokerShare, ReportView } from '@irp/proto';
import { routes } from '@/api/routes';
import { routePath } from '@/test/fakeApi';

export const REPORT_GUID = '5f0c9a1e2b3d4c5e6f708192a3b4c5d6';
export const NEW_REPORT_GUID = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
export const REPORT_PATH = routePath(routes.reports.report, { guid: REPORT_GUID });
export const REGENERATE_PATH = routePath(routes.reports.publicGenerateReport);

const BROKER_NAMES = [
  'Tasman Ridge Securities',
  'Harbour Street Capital',
  'Southern Cross Equities',
  'Coral Bay Markets',
  'Macquarie Place Brokers',
  'Blue Gum Partners',
  'Red Centre Trading',
  'Wattle & Co',
  'Pacific Rim Securities',
  'Kookaburra Capital',
  'Derwent Street Brokers',
  'Ningaloo Markets',
  'Brindabella Securities',
  'Kimberley Equities',
  'Gippsland Trading',
  'Nullarbor Capital',
  'Great Dividing Brokers',
  'Whitsunday Securities',
  'Torrens Partners',
  'Swan River Equities',
];

/**
 * A broker share as the reports service computes it (docs/api/reports.md): values from volumes and prices,
 * totVal = buyValue + sellValue, netVal = buyValue - sellValue, tradedPercent of `totalVolume`.
 */
function brokerShare(name: string, rank: number, price: number, totalVolume: number): BrokerShare {
  const buyVol = 400_000 - rank * 15_000;
  const sellVol = 300_000 + ((rank * 37_000) % 160_000);
  const buyPrice = price + 0.0125;
  const sellPrice = price - 0.0075;
  const buyValue = Math.round(buyVol * buyPrice * 100) / 100;
  const sellValue = Math.round(sellVol * sellPrice * 100) / 100;
  const buys = 900 - rank * 31;
  const sells = 700 + rank * 7;
  return {
    name,
    totVal: Math.round((buyValue + sellValue) * 100) / 100,
    netVal: Math.round((buyValue - sellValue) * 100) / 100,
    netVol: buyVol - sellVol,
    sells,
    sellVol,
    sellPrice,
    sellValue,
    buys,
    buyVol,
    buyPrice,
    buyValue,
    trades: buys + sells,
    tradedPercent: Math.round(((buyVol + sellVol) / (2 * totalVolume)) * 10_000) / 100,
  };
}

/** One stock's broker activity: 20 brokers (the top 20 of 48 that traded it). */
export function brokerActivity(ticker: string, price: number, brokerNames = BROKER_NAMES) {
  const totalVolume = 9_850_000;
  const brokers = brokerNames.map((name, rank) => brokerShare(name, rank, price, totalVolume));
  return {
    brokerShareAnalysis: {
      ticker,
      totalValue: Math.round(totalVolume * price * 100) / 100,
      totalVolume,
      numTrades: 31_204,
      brokerCount: 48,
      brokers,
    },
  };
}

const DAYS = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07'];

/**
 * A report of BHP with peers RIO and FMG over the first week of March 2025 as GET /api/report/{guid} answers
 * it: comparative trading activity and the price overlay asked for, 5 March's trades missing (a provider
 * outage), a price-sensitive announcement on 6 March that Tasman Ridge Securities bought ahead of.
 */
export function reportView(overrides: Partial<ReportView> = {}): ReportView {
  const closes: Record<string, number[]> = {
    'BHP:ASX': [43.1, 43.52, 43.9, 44.82, 44.61],
    'RIO:ASX': [118.2, 117.9, 118.75, 119.4, 120.05],
    'FMG:ASX': [18.44, 18.2, 18.31, 18.02, 17.95],
  };
  return {
    guid: REPORT_GUID,
    created: '2025-03-10T23:15:00.000Z',
    stockId: 'stock-bhp',
    ticker: 'BHP:ASX',
    companyName: 'BHP Group Limited',
    peers: ['RIO:ASX', 'FMG:ASX'],
    startDate: '2025-03-03',
    endDate: '2025-03-07',
    allowSearch: true,
    priceOverlay: true,
    activitySummary: {
      numTrades: 124_816,
      totalVolume: 39_400_000,
      totalValue: 1_726_118_342.55,
      averageDailyValue: 431_529_585.64,
      vwap: 43.8101,
      open: 43.05,
      close: 44.61,
      high: 45.02,
      low: 42.88,
      changePercent: 3.62,
      brokerCount: 48,
      text: 'BHP:ASX: 124,816 trades worth $1,726,118,343 over 4 trading days, between 48 brokers.',
    },
    reportPeriod: {
      startDate: '2025-03-03',
      endDate: '2025-03-07',
      tradingDays: 5,
      daysWithData: 4,
      missingDays: [
        {
          ticker: 'BHP:ASX',
          day: '2025-03-05',
          reason: 'The market-data provider is unavailable (503)',
        },
      ],
      marketDataDisabled: [],
      text: '2025-03-03 to 2025-03-07: 5 trading days; market data missing for 1 stock-day',
    },
    brokerActivityViewModels: [
      brokerActivity('BHP:ASX', 43.8),
      brokerActivity('RIO:ASX', 118.9),
      brokerActivity('FMG:ASX', 18.2),
    ],
    comparativeTradingActivity: {
      items: [
        { name: 'BHP Group Limited', percent: 52.31, meta: { ticker: 'BHP:ASX', value: 1_726_118_342.55 } },
        { name: 'Rio Tinto Limited', percent: 35.12, meta: { ticker: 'RIO:ASX', value: 1_158_904_120.1 } },
        {
          name: 'Fortescue Ltd',
          percent: 12.57,
          meta: { ticker: 'FMG:ASX', value: 414_780_556.35 },
        },
      ],
      targetValue: 1_726_118_342.55,
      totalPeerValue: 1_573_684_676.45,
    },
    priceComparison: {
      series: Object.entries(closes).map(([ticker, values]) => ({
        ticker,
        points: DAYS.filter((day) => ticker !== 'BHP:ASX' || day !== '2025-03-05').map((day) => {
          const close = values[DAYS.indexOf(day)] ?? 0;
          const first = values[0] ?? close;
          return { day, close, changePercent: Math.round(((close - first) / first) * 10_000) / 100 };
        }),
      })),
    },
    tradeAnalysis: [
      {
        day: '2025-03-03',
        numTrades: 30_112,
        trVal: 402_118_000.5,
        avgSize: 311,
        high: 43.4,
        low: 42.88,
        close: 43.1,
        announcements: [],
        missingData: false,
      },
      {
        day: '2025-03-04',
        numTrades: 28_940,
        trVal: 398_554_210.25,
        avgSize: 316,
        high: 43.7,
        low: 43.0,
        close: 43.52,
        announcements: [
          {
            date: '2025-03-03T22:31:00.000Z',
            headline: 'Change in substantial holding',
            priceSensitive: false,
          },
        ],
        missingData: false,
      },
      {
        day: '2025-03-05',
        numTrades: null,
        trVal: null,
        avgSize: null,
        high: null,
        low: null,
        close: null,
        announcements: [],
        missingData: true,
      },
      {
        day: '2025-03-06',
        numTrades: 36_530,
        trVal: 512_960_130.8,
        avgSize: 318,
        high: 45.02,
        low: 43.95,
        close: 44.82,
        announcements: [
          {
            date: '2025-03-05T21:50:00.000Z',
            headline: 'Half Year Results and Interim Dividend',
            priceSensitive: true,
          },
        ],
        missingData: false,
      },
      {
        day: '2025-03-07',
        numTrades: 29_234,
        trVal: 412_486_001,
        avgSize: 309,
        high: 44.95,
        low: 44.4,
        close: 44.61,
        announcements: [],
        missingData: false,
      },
    ],
    peerPerformance: [
      { name: 'BHP:ASX', percentage: 3.62 },
      { name: 'RIO:ASX', percentage: 1.61 },
      { name: 'FMG:ASX', percentage: -2.66 },
    ],
    preRelease: {
      sessionsBefore: 5,
      baselineSessions: 30,
      threshold: 4,
      flags: [
        {
          announcementDate: '2025-03-05T21:50:00.000Z',
          headline: 'Half Year Results and Interim Dividend',
          broker: 'Tasman Ridge Securities',
          sessions: ['2025-02-26', '2025-02-27', '2025-02-28', '2025-03-03', '2025-03-04'],
          netVol: 4_210_000,
          netVal: 182_345_100.4,
          baselineNetVol: 12_500,
          baselineSpread: 310_000,
          score: 13.54,
        },
      ],
    },
    ...overrides,
  };
}
