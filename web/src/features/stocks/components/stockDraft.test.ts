import { EDITABLE_STOCK_FIELDS } from '@irp/proto';
import { describe, expect, it } from 'vitest';
import {
  changedFields,
  draftFromStock,
  hasIsin,
  newStockDraft,
  stockFieldsOf,
  testApiUrl,
  viewOnExchangeUrl,
} from './stockDraft';
import { STOCK } from '../test/fixtures';

describe('the Config form values', () => {
  it('holds every editable field, numbers and dates as input text, no API key as empty', () => {
    const draft = draftFromStock(STOCK);
    expect(Object.keys(draft).sort()).toEqual([...EDITABLE_STOCK_FIELDS].sort());
    expect(draft.announcementStartYear).toBe('2024');
    // 2025-06-30 14:00 UTC is 1 July in Sydney.
    expect(draft.billingDate).toBe('2025-07-01');
    expect(draft.apiKey).toBe('');
    expect(draft.sendPriceSensitiveAnnouncements).toBe(true);
  });

  it('tolerates the summary stock a report-runner gets', () => {
    const draft = draftFromStock({ ticker: 'BHP', exchange: 'ASX' });
    expect(draft.companyName).toBe('');
    expect(draft.pollAsx).toBe(false);
  });

  it('starts a new stock on ASX, this year, billed today (Sydney)', () => {
    const draft = newStockDraft(new Date('2026-12-31T20:00:00Z'));
    expect(draft.exchange).toBe('ASX');
    expect(draft.announcementStartYear).toBe('2027');
    expect(draft.billingDate).toBe('2027-01-01');
    expect(draft.ticker).toBe('');
    expect(draft.pollAsx).toBe(false);
  });

  it('lists the changed fields and converts them for the save body', () => {
    const saved = draftFromStock(STOCK);
    const draft = {
      ...saved,
      companyName: 'BHP Ltd',
      announcementStartYear: ' 2025 ',
      apiKey: '',
      pollAsx: true,
    };
    const fields = changedFields(saved, draft);
    expect(fields).toEqual(['companyName', 'pollAsx', 'announcementStartYear']);
    expect(stockFieldsOf(draft, fields)).toEqual({
      companyName: 'BHP Ltd',
      pollAsx: true,
      announcementStartYear: 2025,
    });
    expect(changedFields(saved, { ...saved })).toEqual([]);
  });

  it('sends the billing date as that date, the ticker upper-cased and no key as null', () => {
    const draft = { ...newStockDraft(new Date('2026-03-05T01:00:00Z')), ticker: ' abc ' };
    const body = stockFieldsOf(draft);
    expect(body.billingDate).toBe('2026-03-05T00:00:00.000Z');
    expect(body.ticker).toBe('ABC');
    expect(body.apiKey).toBeNull();
    expect(body.announcementStartYear).toBe(2026);
  });
});

describe('Config links', () => {
  it('links to the exchange for ASX, LSE, FSE and OTC', () => {
    expect(viewOnExchangeUrl('bhp', 'ASX')).toBe(
      'https://www.asx.com.au/markets/trade-our-cash-market/overview/equities/BHP',
    );
    expect(viewOnExchangeUrl('VOD', 'LSE')).toContain('/stock/VOD/');
    expect(viewOnExchangeUrl('SAP', 'FSE')).toContain('/equity/SAP');
    expect(viewOnExchangeUrl('ABCD', 'OTC')).toContain('/stock/ABCD/overview');
    expect(viewOnExchangeUrl('ABC', 'NYSE')).toBeNull();
    expect(viewOnExchangeUrl('', 'ASX')).toBeNull();
  });

  it('shows ISIN only for LSE and FSE', () => {
    expect(['ASX', 'LSE', 'FSE', 'OTC'].filter(hasIsin)).toEqual(['LSE', 'FSE']);
  });

  it('points [Test API] at the widget API with the key', () => {
    expect(testApiUrl(' k/1 ')).toBe('/api/widget/stock?apiKey=k%2F1');
  });
});
