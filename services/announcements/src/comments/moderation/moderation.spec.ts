import type { CommentFlag } from '@irp/proto';
import {
  KNOWN_LISTED_COMPANIES,
  LISTED_COMPANY_RULE,
  ListedCompany,
  MODERATION_RULES,
  screenComment,
  ScreenContext,
  TICKER_STOP_WORDS,
} from '.';

/** The stock the comments are about, and one other client stock of the portal. */
const own = { ticker: 'ACM', companyName: 'Acme Minerals Limited' };
const pyxis: ListedCompany = { ticker: 'PXR', companyName: 'Pyxis Resources Limited' };
const context: ScreenContext = { own, listedCompanies: [pyxis] };

const screen = (text: string, ctx: ScreenContext = context) => screenComment(text, ctx);
const rulesOf = (flags: CommentFlag[]) => flags.map((f) => f.rule);
const categoryOf = (ruleId: string) => MODERATION_RULES.find((r) => r.id === ruleId)?.category;

describe('moderation screen: disclosure', () => {
  const flagged: Array<[rule: string, comment: string]> = [
    ['unreleased-results', 'Will the FY25 profit be higher than last year?'],
    ['unreleased-results', 'Can you give us a hint on the half-year numbers before they come out?'],
    ['unreleased-results', 'How is the current quarter tracking against last year?'],
    ['unreleased-results', 'Are the assays from the northern drill holes back yet?'],
    ['unreleased-results', 'Can you tell us what the earnings will be?'],
    ['unreleased-results', 'Are sales going well in the US this quarter?'],
    ['guidance', 'What is your revenue guidance for FY26?'],
    ['guidance', 'Are you on track to meet production guidance this year?'],
    ['guidance', 'When will you release guidance for next year?'],
    ['guidance', 'Do you expect revenue to grow next year?'],
    ['pending-deal', 'Is the company in talks with a potential acquirer?'],
    ['pending-deal', 'Are you planning a capital raising in the next few months?'],
    ['pending-deal', 'Is the board considering a sale of the business?'],
    ['pending-deal', 'Are there any deals in the pipeline?'],
    ['pending-deal', 'Do you plan to sell the Perth asset?'],
    ['pending-deal', 'Do you have any plans to list on the NASDAQ?'],
    ['takeover', 'Has the company received a takeover approach from private equity?'],
    ['takeover', 'Rumours say you are being taken over, is that true?'],
    ['price-sensitive', 'Can you share any price sensitive information with long term holders?'],
    ['price-sensitive', 'Is there anything material that has not yet been released?'],
    ['insider-information', 'Any inside info on the Perth project? I will keep it between you and me.'],
    ['news-coming', 'Is there something big coming? Volumes have been strange.'],
    ['news-coming', 'Any announcements due soon on the offtake partner?'],
    ['share-price-movement', 'Why is the share price up 20% today?'],
    ['share-price-movement', 'Why was there a trading halt this morning?'],
    ['dividend-decision', 'Will the board declare a special dividend this year?'],
    ['dividend-decision', 'Will the next dividend be higher than the last one?'],
  ];

  it.each(flagged)('flags %s: %s', (rule, comment) => {
    const flags = screen(comment);
    expect(rulesOf(flags)).toContain(rule);
    expect(flags.find((f) => f.rule === rule)).toMatchObject({ category: 'disclosure' });
  });

  const fine = [
    'When is the AGM?',
    'Thanks for the clear quarterly report.',
    'Can you explain the exploration results released yesterday?',
    'The CEO’s presentation was great.',
    'What does EPS mean in the report?',
    'When are the half-year results due?',
    'The results were better than expected, well done to the team.',
    'What was the rationale for the acquisition announced in March?',
    'Can you explain the capital raising announced yesterday and why it was priced at a discount?',
    'How do I participate in the rights issue announced on Monday?',
    'Is it possible to join the share purchase plan late?',
    'Is the dividend paid by direct credit or cheque?',
    'Will the dividend be paid on the 15th?',
    'Thanks for your guidance on how to vote.',
    'Thanks for the heads up about the AGM date.',
    'Could you explain the increase in exploration spend shown in the presentation?',
    'What does the AGM vote on the remuneration report mean for holders?',
    'Do you expect the results to be released on time?',
    'The potential of the project is huge.',
    'Why is the share register so hard to update?',
    'Why did you choose a placement rather than a rights issue in March?',
    'Can you confirm the record date for the interim dividend announced today?',
    'How do I change my address for the dividend payments?',
    'Will the webcast be recorded for those who cannot attend?',
    'Are you buying more drill rigs this year?',
  ];

  it.each(fine)('does not flag: %s', (comment) => {
    expect(screen(comment)).toEqual([]);
  });
});

describe('moderation screen: other listed companies', () => {
  it('names the company in the reason, with the words that named it', () => {
    expect(screen('How does this compare with Rio Tinto’s project next door?')).toEqual([
      {
        rule: LISTED_COMPANY_RULE.id,
        category: 'listed-company',
        reason: 'Names another listed company: Rio Tinto (RIO)',
        match: 'Rio Tinto',
      },
    ]);
  });

  it.each([
    ['ASX:PLS', 'Would a merger with ASX:PLS make sense?', 'Pilbara Minerals (PLS)'],
    ['ASX: XYZ', 'What about the tenements next to ASX: XYZ?', 'ASX:XYZ'],
    ['(ASX:LYC)', 'Lynas Rare Earths (ASX:LYC) sells to the same buyers.', 'Lynas Rare Earths (LYC)'],
    ['XYZ.AX', 'I also hold RIO.AX.', 'Rio Tinto (RIO)'],
    ['a known ticker in capitals', 'Is IGO a competitor in nickel?', 'IGO Limited (IGO)'],
    ['a cashtag', 'Thoughts on $WDS lately?', 'Woodside Energy Group (WDS)'],
    ['an alias', 'I shop at Coles every week.', 'Coles Group (COL)'],
    ['a qualified name', 'Origin Energy is a customer of ours, isn’t it?', 'Origin Energy (ORG)'],
  ])('finds a company named by %s', (_how, comment, named) => {
    const flags = screen(comment);
    expect(flags.map((f) => f.reason)).toEqual([`Names another listed company: ${named}`]);
  });

  it('finds a client stock of the portal by its name without the legal suffix, and by its ticker', () => {
    expect(screen('Does Pyxis Resources share the rail line?')[0]).toMatchObject({
      reason: 'Names another listed company: Pyxis Resources Limited (PXR)',
      match: 'Pyxis Resources',
    });
    expect(rulesOf(screen('PXR shares the rail line with you.'))).toEqual([LISTED_COMPANY_RULE.id]);
    expect(screen('Does Pyxis Resources share the rail line?', { own, listedCompanies: [] })).toEqual([]);
  });

  it('never flags the stock itself, by ticker, name, code or an alias of the built-in list', () => {
    expect(screen('Great update from Acme Minerals, ACM is looking strong (ASX:ACM, ACM.AX).')).toEqual([]);
    const bhp: ScreenContext = {
      own: { ticker: 'BHP', companyName: 'BHP Group Limited' },
      listedCompanies: [{ ticker: 'BHP', companyName: 'BHP Group Limited' }, pyxis],
    };
    expect(screen('BHP Billiton, BHP Group and BHP: all the same company.', bhp)).toEqual([]);
  });

  it('one flag per company, in the order they are first named', () => {
    const flags = screen('Telstra and TLS.AX, then Westpac, then Telstra again, and WBC.');
    expect(flags.map((f) => f.reason)).toEqual([
      'Names another listed company: Telstra Group (TLS)',
      'Names another listed company: Westpac Banking Corporation (WBC)',
    ]);
  });

  it.each([
    'I am concerned about the origin of the funding.',
    'The Mineral Resources estimate grew 12%, great work.',
    'Lots of cochlear implant users in my family love the product.',
    'I live in Port Macquarie and visited the site office.',
    'Mr Goodman asked a good question at the AGM.',
    'Congratulations on ALL the progress this year.',
    'Our CEO, CFO and the ASX all agree the NPAT and EBITDA in FY24 were in USD, not AUD.',
    'Is this like an IPO for ESG funds?',
    'According to the ASX: the rules are clear.',
  ])('does not take ordinary words and jargon for a company: %s', (comment) => {
    expect(screen(comment).filter((f) => f.category === 'listed-company')).toEqual([]);
  });

  it('reads a ticker that is also a word only in a comment that is not shouted', () => {
    const manuka: ScreenContext = {
      own,
      listedCompanies: [{ ticker: 'MAN', companyName: 'Manuka Holdings' }],
    };
    expect(screen('Is MAN still drilling next door?', manuka).map((f) => f.reason)).toEqual([
      'Names another listed company: Manuka Holdings (MAN)',
    ]);
    expect(screen('WHY WILL NO MAN AT THE COMPANY ANSWER MY EMAILS', manuka)).toEqual([]);
  });

  it('keeps the words it never reads as a bare ticker in capitals', () => {
    for (const word of [
      'ALL',
      'WOW',
      'PLS',
      'CEO',
      'CFO',
      'AGM',
      'EPS',
      'ASX',
      'NPAT',
      'EBITDA',
      'FY',
      'IPO',
    ])
      expect(TICKER_STOP_WORDS.has(word)).toBe(true);
    expect(TICKER_STOP_WORDS.has('IGO')).toBe(false);
  });
});

describe('moderation screen: contact details', () => {
  it.each([
    ['email-address', 'Email me at john.smith@gmail.com'],
    ['email-address', 'Write to jo [at] example [dot] com please'],
    ['phone-number', 'Please call me on 0412 345 678'],
    ['phone-number', 'My number is +61 2 9876 5432'],
    ['phone-number', 'Call (02) 9876 5432 after hours'],
    ['phone-number', 'Ring 1800 123 456 for the offer'],
    ['phone-number', 'In London: +44 20 7946 0958'],
    ['link', 'Check https://hotcopper.com.au/threads/123 for the discussion.'],
    ['link', 'See www.example.com.au'],
    ['link', 'More at example.com.au about this'],
    ['social-handle', 'Follow me @LithiumLarry for updates'],
  ])('flags %s: %s', (rule, comment) => {
    const flags = screen(comment);
    expect(rulesOf(flags)).toEqual([rule]);
    expect(flags[0].category).toBe('contact-details');
  });

  it.each([
    'I bought at $1.20 and the price is now $1.45.',
    'The meeting on 12/03/2025 was informative.',
    'Costs were e.g. lower in Q3, i.e. about 3.5% down.',
    'I updated my address with the share registry, 1,234,567 shares held.',
    'The ABN is 12 345 678 901 according to the annual report.',
    'The gold price rose +12.5% this year.',
    'The drilling hit 12m @ 3.5g/t Au from 45m.',
    'Office hours are 0830-1700 AEST.',
  ])('does not flag: %s', (comment) => {
    expect(screen(comment)).toEqual([]);
  });

  it('quotes the link without the full stop that ends the sentence', () => {
    expect(screen('The thread is at https://example.com/a/b.')[0].match).toBe('https://example.com/a/b');
  });
});

describe('moderation screen: flags', () => {
  it('lists disclosure first, then listed companies, then contact details, one flag per rule', () => {
    const flags = screen(
      'Call me on 0412 345 678. Is BHP making a takeover bid? Will the results be better? Will the results be better?',
    );
    expect(flags.map((f) => f.category)).toEqual([
      'disclosure',
      'disclosure',
      'listed-company',
      'contact-details',
    ]);
    expect(rulesOf(flags)).toEqual(['unreleased-results', 'takeover', 'listed-company', 'phone-number']);
    expect(flags[0].match).toBe('results be better');
  });

  it('flags the questions of the service tests', () => {
    const flags = screen(
      'Will the full year results beat guidance before they are announced? I also heard BHP Group is preparing a takeover bid.',
    );
    expect(flags.map((f) => f.category)).toEqual(expect.arrayContaining(['disclosure', 'listed-company']));
    expect(flags.find((f) => f.category === 'listed-company')?.reason).toContain('BHP');
    expect(
      screen('Is there any news coming about a capital raising? Revenue 1 < 2 & "margins"?'),
    ).not.toEqual([]);
  });

  it('quotes at most 80 characters of the match, on one line', () => {
    const link = `https://example.com/${'a'.repeat(120)}`;
    expect(screen(`See ${link} for more`)[0].match).toBe(link.slice(0, 80));
    expect(screen('Will the profit\n   be    higher this year?')[0].match).toBe('profit be higher');
  });

  it('screens the longest comment quickly', () => {
    const comment = 'Will the results, the numbers and the figures of the quarter be, say, '
      .repeat(29)
      .slice(0, 2000);
    const started = process.hrtime.bigint();
    for (let i = 0; i < 20; i++) screen(comment);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Generous for a loaded machine: a backtracking pattern would take seconds.
    expect(ms / 20).toBeLessThan(50);
  });
});

describe('moderation rules are data', () => {
  it('each rule has its own id, a category, a reason and a pattern that reports its first match', () => {
    const ids = MODERATION_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(LISTED_COMPANY_RULE.id);
    for (const rule of MODERATION_RULES) {
      expect(['disclosure', 'contact-details']).toContain(categoryOf(rule.id));
      expect(rule.reason.length).toBeGreaterThan(10);
      expect(rule.pattern.global || rule.pattern.sticky).toBe(false);
    }
  });

  it('knows the well-known ASX companies, one entry per ticker', () => {
    const tickers = KNOWN_LISTED_COMPANIES.map((c) => c.ticker);
    expect(tickers.length).toBeGreaterThanOrEqual(40);
    expect(new Set(tickers).size).toBe(tickers.length);
    expect(tickers).toEqual(expect.arrayContaining(['BHP', 'RIO', 'CBA', 'CSL', 'FMG', 'WDS', 'COH', 'TWE']));
  });
});
