import { StocksRun } from './stocks-harness';

/** A stock's notes, version history and referers. */
export function notesHistoryReferersCases(t: StocksRun) {
  const { get, post } = t;
  describe('notes, version history, referers', () => {
    it('saves notes and lists them newest first', async () => {
      const first = await post(
        '/api/admin/saveNote',
        { ticker: t.C.combinedTicker, details: 'First call' },
        'admin',
      );
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        note: { id: expect.any(String), date: expect.any(String), user: 'admin', details: 'First call' },
      });
      await post('/api/admin/saveNote', { ticker: t.C.combinedTicker, details: 'Second call' }, 'admin');
      const res = await get(`/api/admin/getNotes?ticker=${t.C.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      expect(res.body.map((n: { details: string }) => n.details)).toEqual(['Second call', 'First call']);
    });

    it('refuses notes without a ticker or details with 400', async () => {
      const noTicker = await get('/api/admin/getNotes', 'admin');
      expect(noTicker.status).toBe(400);
      expect(noTicker.body.errorMessage).toBe('ticker: Required');
      const noDetails = await post('/api/admin/saveNote', { ticker: t.C.combinedTicker }, 'admin');
      expect(noDetails.status).toBe(400);
      expect(noDetails.body.errorMessage).toBe('details: Required');
      const unknown = await post('/api/admin/saveNote', { ticker: 'NOSUCH9:ASX', details: 'x' }, 'admin');
      expect(unknown.status).toBe(404);
    });

    it('lists version history newest first, create being version 1', async () => {
      const res = await get(`/api/admin/getStockVersionHistory?ticker=${t.B.combinedTicker}`, 'admin');
      expect(res.status).toBe(200);
      const ids = res.body.map((v: { versionId: number }) => v.versionId);
      expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
      expect(ids[ids.length - 1]).toBe(1);
      expect(res.body[ids.length - 1]).toMatchObject({ changedBy: 'admin', changes: expect.any(Array) });
      expect(res.body[ids.length - 1].changes).toEqual(
        expect.arrayContaining([
          { fieldName: 'companyName', originalValue: null, newValue: 'Beta Minerals' },
        ]),
      );
      const missing = await get('/api/admin/getStockVersionHistory', 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toBe('ticker: Required');
    });

    it('refuses the referers of no stock with 400', async () => {
      const res = await get('/api/admin/stockReferers?ticker=', 'admin');
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toBe('ticker: Required');
    });
  });
}
