import { StockRole } from '@irp/proto';
import { StocksRun } from './stocks-harness';

/** A client saves the client subset of its stock. */
export function clientStockSaveCases(t: StocksRun) {
  const { get, post } = t;
  describe('POST /api/ClientStock', () => {
    it('saves the client subset and answers the client form', async () => {
      const res = await post(
        '/api/ClientStock',
        {
          combinedTicker: t.A.combinedTicker,
          companyName: 'Alpha Resources Ltd',
          confirmationEmail: 'ir@alpha.example.com; cfo@alpha.example.com',
          sendPriceSensitiveAnnouncements: true,
          moderatorEmail: 'mod@alpha.example.com',
        },
        'tclient',
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        errorMessage: null,
        stock: {
          id: t.A.id,
          companyName: 'Alpha Resources Ltd',
          confirmationEmail: 'ir@alpha.example.com; cfo@alpha.example.com',
          sendPriceSensitiveAnnouncements: true,
          moderatorEmail: 'mod@alpha.example.com',
          emailMarketing: null,
        },
      });
      expect(res.body.stock.roles).toContain(StockRole.ReplyToComment);
      const history = await get(`/api/admin/getStockVersionHistory?ticker=${t.A.combinedTicker}`, 'admin');
      expect(history.body[0].changedBy).toBe('stocks-test-client');
    });

    it('refuses any field outside the client form with 400 naming it', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: t.A.combinedTicker, companyName: 'x', pollAsx: true },
        'tclient',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: 'Not allowed in a client save: pollAsx',
      });
    });

    it('takes the client form posted back as it was read, and refuses a read-only field changed in it', async () => {
      const read = await get(`/api/ClientStock/?combinedTicker=${t.A.combinedTicker}`, 'tclient');
      expect(read.status).toBe(200);
      expect(read.body).toHaveProperty('apiKey');
      // Without Invoicing on A the form has no invoice fields: one posted is refused like a changed one.
      expect(read.body).not.toHaveProperty('invoiceTotal');
      const res = await post(
        '/api/ClientStock',
        { ...read.body, websiteUrl: 'alpha-as-read.example.com' },
        'tclient',
      );
      expect(res.status).toBe(200);
      expect(res.body.stock.websiteUrl).toBe('alpha-as-read.example.com');

      for (const [field, value] of [
        ['apiKey', 'stolen'],
        ['created', '2001-01-01T00:00:00.000Z'],
        ['completedInitialPoll', false],
        ['invoiceTotal', 1],
      ] as const) {
        const changed = await post('/api/ClientStock', { ...res.body.stock, [field]: value }, 'tclient');
        expect(changed.status).toBe(400);
        expect(changed.body).toMatchObject({
          success: false,
          stock: null,
          errorMessage: `Not allowed in a client save: ${field} (read-only: send it as read or leave it out)`,
        });
      }
      // The first form read, posted back unchanged, puts the website back (later cases read it).
      const restored = await post('/api/ClientStock', read.body, 'tclient');
      expect(restored.status).toBe(200);
      expect(restored.body.stock.websiteUrl).toBe(read.body.websiteUrl);
    });

    it('refuses an invalid email with the service rule', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: t.A.combinedTicker, contactEmail: 'not-an-email' },
        'tclient',
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, stock: null });
      expect(res.body.errorMessage).toMatch(/^Invalid email address in .*: not-an-email$/);
    });

    it('needs ReplyToComment for moderator emails, logo and comment template (403)', async () => {
      const res = await post(
        '/api/ClientStock',
        { combinedTicker: t.B.combinedTicker, companyLogoUrl: 'https://beta.example.com/logo.png' },
        'tclient',
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        stock: null,
        errorMessage: `You need the ReplyToComment permission on ${t.B.combinedTicker} to change moderator emails, the company logo or the comment template`,
      });
      const ok = await post(
        '/api/ClientStock',
        { combinedTicker: t.B.combinedTicker, websiteUrl: 'beta.example.com' },
        'tclient',
      );
      expect(ok.status).toBe(200);
      expect(ok.body.stock.websiteUrl).toBe('beta.example.com');
    });
  });
}
