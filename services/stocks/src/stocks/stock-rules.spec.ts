import { CLIENT_STOCK_FIELDS, INVALID_TICKER_MESSAGE, REPLY_TO_COMMENT_FIELDS } from '@irp/proto';
import { actor } from '@irp/proto/testing';
import { AppError } from '@irp/platform';
import { StockEntity } from './stock.entity';
import {
  applyFields,
  checkClientChanges,
  creationChanges,
  defaultSettings,
  diffSettings,
  firstInvalidEmail,
  isinCheckDigit,
  isValidIsin,
  isValidStartYear,
  maxStartYear,
  nextUpdatedAt,
  parseBillingDate,
  StockSettings,
  sydneyYear,
  toStock,
  validateSettings,
  versionText,
  withIsinCheckDigit,
} from './stock-rules';

const NOW = new Date('2026-03-10T02:00:00Z');
const STOCK = '00000000-0000-4000-8000-0000000000aa';

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

const pat = (roles: string[], stockRoles: string[] = []) =>
  actor({ username: 'pat', roles, stockRoles: stockRoles.length ? { [STOCK]: stockRoles } : {} });

const settings = (over: Partial<StockSettings> = {}): StockSettings => ({
  ...defaultSettings(NOW),
  ticker: 'BHP',
  ...over,
});

describe('ISIN', () => {
  it.each(['GB00BH4HKS39', 'DE0007164600', 'US0378331005', 'AU000000BHP4', 'gb00bh4hks39'])(
    'accepts the real ISIN %s',
    (isin) => expect(isValidIsin(isin)).toBe(true),
  );
  it.each([
    'GB00BH4HKS38',
    'DE0007164601',
    'US0378331004',
    'US037833100',
    'US03783310055',
    '',
    '1B0037833100',
  ])('refuses %p', (isin) => expect(isValidIsin(isin)).toBe(false));
  it('computes check digits, letters counting 10..35', () => {
    expect(isinCheckDigit('US037833100')).toBe(5);
    expect(isinCheckDigit('GB00BH4HKS3')).toBe(9);
    expect(withIsinCheckDigit('DE000716460')).toBe('DE0007164600');
  });
});

describe('field rules', () => {
  it('finds the first invalid address of a list split on commas or semicolons', () => {
    expect(firstInvalidEmail('a@x.com; b@y.org,c@z.net')).toBeUndefined();
    expect(firstInvalidEmail('')).toBeUndefined();
    expect(firstInvalidEmail('a@x.com; nope ;c@z.net')).toBe('nope');
    expect(firstInvalidEmail('a@x')).toBe('a@x');
  });

  it('allows poll start years from 1990 to next year (Sydney time)', () => {
    expect(maxStartYear(NOW)).toBe(2027);
    expect(isValidStartYear(1990, NOW)).toBe(true);
    expect(isValidStartYear(2027, NOW)).toBe(true);
    expect(isValidStartYear(1989, NOW)).toBe(false);
    expect(isValidStartYear(2028, NOW)).toBe(false);
    // 31 Dec 2025 14:00 UTC is already 1 Jan 2026 in Sydney.
    expect(sydneyYear(new Date('2025-12-31T14:00:00Z'))).toBe(2026);
  });

  it('gives a new stock the spec defaults', () => {
    const d = defaultSettings(NOW);
    expect(d).toMatchObject({
      exchange: 'ASX',
      announcementStartYear: 2026,
      billingDate: NOW,
      pollAsx: false,
      subscriptionExpired: false,
      apiKey: null,
      companyName: '',
    });
  });

  it('normalises what a save sends and leaves absent fields alone', () => {
    const next = applyFields(settings({ companyName: 'Old' }), {
      ticker: ' cba ',
      exchange: 'lse',
      isin: ' gb00bh4hks39 ',
      websiteUrl: '  example.com ',
      apiKey: '  ',
      announcementCommentTemplate: '\n  Dear {name}',
      billingDate: '2026-01-02T00:00:00.000Z',
      pollAsx: true,
    });
    expect(next).toMatchObject({
      ticker: 'CBA',
      exchange: 'LSE',
      isin: 'GB00BH4HKS39',
      websiteUrl: 'example.com',
      apiKey: null,
      announcementCommentTemplate: '\n  Dear {name}',
      billingDate: new Date('2026-01-02T00:00:00.000Z'),
      pollAsx: true,
      companyName: 'Old',
    });
    expect(thrown(() => applyFields(settings(), { billingDate: 'soon' })).message).toBe(
      'Please define a valid billing date',
    );
  });
});

describe('billing date', () => {
  it.each([
    ['2026-03-05', '2026-03-05T00:00:00.000Z'],
    [' 2026-03-05 ', '2026-03-05T00:00:00.000Z'],
    ['2026-03-05T00:00:00.000Z', '2026-03-05T00:00:00.000Z'],
    ['2026-03-05T10:30Z', '2026-03-05T10:30:00.000Z'],
    ['2026-03-05T10:00:00+10:00', '2026-03-05T00:00:00.000Z'],
    ['2024-02-29T23:59:59.999-05:30', '2024-03-01T05:29:59.999Z'],
    ['1990-01-01', '1990-01-01T00:00:00.000Z'],
    ['2100-12-31', '2100-12-31T00:00:00.000Z'],
  ])('accepts %p', (text, iso) => expect(parseBillingDate(text)?.toISOString()).toBe(iso));

  it.each([
    '1',
    'March 5',
    '5 March 2026',
    '10000-01-01',
    '-0001-01-01',
    '+010000-01-01T00:00:00.000Z',
    '1989-12-31',
    '2101-01-01',
    '2026-02-29',
    '2026-13-01',
    '2026-04-31',
    '2026-3-5',
    '2026-03-05T10:00',
    '2026-03-05T24:00:00Z',
    '2026-03-05T10:60:00Z',
    '2026-03-05 10:00:00Z',
    '',
    'soon',
  ])('refuses %p', (text) => expect(parseBillingDate(text)).toBeNull());

  it.each(['1', 'March 5', '10000-01-01', '-0001-01-01'])(
    'answers %p with the 400 of the rule, never a stored guess',
    (billingDate) => {
      const err = thrown(() => applyFields(settings(), { billingDate }));
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.message).toBe('Please define a valid billing date');
    },
  );
});

describe('auto-send filter', () => {
  it('refuses an invalid pattern on save with the rule message and its reason, for clients too', () => {
    const err = thrown(() => validateSettings(settings({ autoSendFilter: 'appendix (3b' }), NOW));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe(
      'The auto-send filter is not a valid pattern: missing closing ): `appendix (3b`',
    );
    expect(
      thrown(() =>
        validateSettings(settings({ autoSendFilter: 'x'.repeat(201) }), NOW, new Set(['autoSendFilter'])),
      ).message,
    ).toBe('The auto-send filter is longer than 200 characters');
  });

  it('refuses what the linear-time engine cannot take (look-around, back-references), naming it', () => {
    expect(thrown(() => validateSettings(settings({ autoSendFilter: '(?=3b)appendix' }), NOW)).message).toBe(
      'The auto-send filter is not a valid pattern: invalid or unsupported Perl syntax: `(?=`',
    );
    expect(thrown(() => validateSettings(settings({ autoSendFilter: '(a)\\1' }), NOW)).message).toBe(
      'The auto-send filter is not a valid pattern: invalid escape sequence: `\\1`',
    );
  });

  it('saves the standard filter and a pattern that would backtrack catastrophically in a RegExp', () => {
    expect(() => validateSettings(settings({ autoSendFilter: 'appendix\\s*3[by]' }), NOW)).not.toThrow();
    expect(() => validateSettings(settings({ autoSendFilter: '^(\\w+\\s?)*$' }), NOW)).not.toThrow();
  });
});

describe('API key form', () => {
  it('accepts letters, digits, - and _ up to 100 characters, or no key', () => {
    expect(() =>
      validateSettings(settings({ apiKey: '3f9c2a7e5b1d48c6a0e4f7b2d9c1e8a5' }), NOW),
    ).not.toThrow();
    expect(() => validateSettings(settings({ apiKey: 'Key_with-dash' }), NOW)).not.toThrow();
    expect(() => validateSettings(settings({ apiKey: null }), NOW)).not.toThrow();
  });

  it.each(['has space', 'dot.key', 'k'.repeat(101)])('refuses %p', (apiKey) =>
    expect(thrown(() => validateSettings(settings({ apiKey }), NOW)).message).toBe(
      'An API key may contain only letters, digits, - and _',
    ),
  );
});

describe('updatedAt', () => {
  it('is now, or just after the stored value when now is not later', () => {
    const stored = new Date('2026-03-10T02:00:00.000Z');
    expect(nextUpdatedAt(stored, new Date('2026-03-10T02:00:01.000Z')).toISOString()).toBe(
      '2026-03-10T02:00:01.000Z',
    );
    expect(nextUpdatedAt(stored, stored).toISOString()).toBe('2026-03-10T02:00:00.001Z');
    expect(nextUpdatedAt(stored, new Date('2026-03-10T01:00:00.000Z')).toISOString()).toBe(
      '2026-03-10T02:00:00.001Z',
    );
  });
});

describe('validateSettings', () => {
  const message = (s: StockSettings, only?: Set<string>) =>
    thrown(() => validateSettings(s, NOW, only)).message;

  it('passes a valid stock', () => {
    expect(() => validateSettings(settings(), NOW)).not.toThrow();
    expect(() =>
      validateSettings(settings({ exchange: 'FSE', isin: 'DE0007164600', contactEmail: 'a@b.de' }), NOW),
    ).not.toThrow();
  });

  it('uses the exact messages of docs/api/stocks.md', () => {
    expect(message(settings({ ticker: 'AB' }))).toBe(INVALID_TICKER_MESSAGE);
    expect(message(settings({ ticker: 'AB-C' }))).toBe(INVALID_TICKER_MESSAGE);
    expect(message(settings({ exchange: 'NYSE' }))).toBe(
      'Unknown exchange NYSE: choose ASX, LSE, FSE or OTC',
    );
    expect(message(settings({ exchange: 'LSE' }))).toBe('Please define a valid ISIN for LSE and FSE stocks');
    expect(message(settings({ exchange: 'FSE', isin: 'DE0007164601' }))).toBe(
      'Please define a valid ISIN for LSE and FSE stocks',
    );
    expect(message(settings({ confirmationEmail: 'a@b.com;bad' }))).toBe(
      'Invalid email address in Confirmation emails: bad',
    );
    expect(message(settings({ announcementNotificationEmails: 'x@' }))).toBe(
      'Invalid email address in Announcement notification emails: x@',
    );
    expect(message(settings({ announcementStartYear: 1989 }))).toBe(
      'Poll start year must be between 1990 and 2027',
    );
  });

  it('checks only the named fields when asked (client saves)', () => {
    const legacy = settings({ contactEmail: 'broken' });
    expect(() => validateSettings(legacy, NOW, new Set(['companyName']))).not.toThrow();
    expect(message(legacy, new Set(['contactEmail']))).toMatch(/Contact emails: broken/);
  });
});

describe('version changes', () => {
  it('writes values as text with null for none', () => {
    expect(versionText(true)).toBe('true');
    expect(versionText(2026)).toBe('2026');
    expect(versionText('')).toBeNull();
    expect(versionText(null)).toBeNull();
    expect(versionText(NOW)).toBe('2026-03-10T02:00:00.000Z');
  });

  it('lists the changed fields with old and new values', () => {
    const before = settings({ companyName: 'BHP', pollAsx: false });
    const after = { ...before, companyName: 'BHP Group', pollAsx: true, apiKey: 'k1' };
    expect(diffSettings(before, after)).toEqual([
      { fieldName: 'companyName', originalValue: 'BHP', newValue: 'BHP Group' },
      { fieldName: 'pollAsx', originalValue: 'false', newValue: 'true' },
      { fieldName: 'apiKey', originalValue: null, newValue: 'k1' },
    ]);
    expect(diffSettings(before, { ...before, billingDate: new Date(NOW.getTime()) })).toEqual([]);
  });

  it('records every set field in version 1', () => {
    const changes = creationChanges(settings({ companyName: 'BHP Group', pollAsx: true }));
    expect(changes.map((c) => c.fieldName)).toEqual([
      'ticker',
      'exchange',
      'companyName',
      'pollAsx',
      'announcementStartYear',
      'billingDate',
    ]);
    expect(changes.every((c) => c.originalValue === null)).toBe(true);
    expect(changes.find((c) => c.fieldName === 'pollAsx')?.newValue).toBe('true');
  });
});

describe('client saves', () => {
  it('allows the client subset, and the ReplyToComment fields only with that role', () => {
    expect(() =>
      checkClientChanges(pat([], ['ViewConfig']), STOCK, 'BHP:ASX', [...CLIENT_STOCK_FIELDS]),
    ).not.toThrow();
    const refused = thrown(() =>
      checkClientChanges(pat([], ['ViewConfig']), STOCK, 'BHP:ASX', ['companyName', 'moderatorEmail']),
    );
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toBe(
      'You need the ReplyToComment permission on BHP:ASX to change moderator emails, the company logo or the comment template',
    );
    expect(() =>
      checkClientChanges(pat([], ['ViewConfig', 'ReplyToComment']), STOCK, 'BHP:ASX', [
        ...REPLY_TO_COMMENT_FIELDS,
      ]),
    ).not.toThrow();
    expect(() => checkClientChanges(pat(['Admin']), STOCK, 'BHP:ASX', ['moderatorEmail'])).not.toThrow();
  });

  it('refuses any other field with 400', () => {
    const refused = thrown(() =>
      checkClientChanges(pat([], ['ViewConfig', 'ReplyToComment']), STOCK, 'BHP:ASX', ['apiKey', 'pollAsx']),
    );
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toBe('Only an Admin may change apiKey, pollAsx');
  });
});

describe('toStock', () => {
  it('derives combinedTicker; no initial poll (the announcements service keeps it, the gateway composes it)', () => {
    const e = Object.assign(new StockEntity(), {
      ...settings({ ticker: 'VOD', exchange: 'LSE' }),
      id: STOCK,
      created: NOW,
      updatedAt: NOW,
      archived: false,
      version: 3,
    });
    expect(toStock(e)).toMatchObject({ combinedTicker: 'VOD:LSE', version: 3 });
    expect(toStock(e)).not.toHaveProperty('completedInitialPoll');
  });
});
