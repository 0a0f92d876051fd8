import { missingItems, sortedFindings, toReconcile } from './reconcile-rules';
import { ReconcileEntity } from './reconcile.entity';

const item = (sourceKey: string, releasedAt: string, headline = `Headline ${sourceKey}`) => ({
  sourceKey,
  ticker: 'BHP',
  headline,
  releasedAt,
  priceSensitive: sourceKey === '2',
  documentUrl: '',
});

describe('reconcile findings', () => {
  it('are the items whose natural key is not stored, each once', () => {
    const items = [
      item('1', '2026-01-01T00:00:00Z'),
      item('2', '2026-01-02T00:00:00Z'),
      item('2', '2026-01-02T00:00:00Z'),
    ];
    expect(missingItems(items, new Set(['1'])).map((i) => i.sourceKey)).toEqual(['2']);
  });

  it('are listed by ticker, newest first, and mapped to the protocol’s results', () => {
    const findings = sortedFindings([
      { stockId: 's2', ticker: 'CBA', items: [item('3', '2026-01-01T00:00:00+11:00')] },
      {
        stockId: 's1',
        ticker: 'BHP',
        items: [item('1', '2026-01-01T00:00:00Z'), item('2', '2026-01-05T00:00:00Z')],
      },
    ]);
    const row = Object.assign(new ReconcileEntity(), {
      id: '9d0f3c52-2b1a-4a53-9d55-1f1f7e0f3b11',
      numDays: 7,
      status: 'completed',
      checked: 2,
      total: 2,
      findings,
      applied: null,
      error: null,
      startedBy: 'admin',
      startedAt: new Date('2026-01-06T00:00:00Z'),
      completedAt: new Date('2026-01-06T00:00:05Z'),
    });
    expect(toReconcile(row)).toEqual({
      id: row.id,
      numDays: 7,
      status: 'completed',
      checked: 2,
      total: 2,
      results: [
        {
          ticker: 'BHP',
          newAnnouncements: [
            { date: '2026-01-05T00:00:00.000Z', headline: 'Headline 2', priceSensitive: true },
            { date: '2026-01-01T00:00:00.000Z', headline: 'Headline 1', priceSensitive: false },
          ],
        },
        {
          ticker: 'CBA',
          newAnnouncements: [
            { date: '2025-12-31T13:00:00.000Z', headline: 'Headline 3', priceSensitive: false },
          ],
        },
      ],
      applied: null,
      error: null,
      startedAt: '2026-01-06T00:00:00.000Z',
      completedAt: '2026-01-06T00:00:05.000Z',
    });
  });
});
