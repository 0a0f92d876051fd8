import { DiskReportSchema, FileCleanupSchema, UPLOAD_CHUNK_BYTES } from '@irp/proto';
import { AnnouncementsRun } from './announcements-harness';

/** The file cleanup and disk space reports. */
export function fileToolsCases(t: AnnouncementsRun) {
  const { get } = t;
  describe('GET /api/admin/fileCleanup and /api/admin/diskReport', () => {
    it('reports files: none of ours is missing on disk', async () => {
      const res = await get('/api/admin/fileCleanup', 'admin');
      expect(res.status).toBe(200);
      const report = FileCleanupSchema.strict().parse(res.body);
      expect(report.missingOnDisk.map((m) => m.sendGuid)).not.toContain(t.base.sendGuid);
    });

    it("reports each stock's disk space, ours included when billable stocks are asked for", async () => {
      const res = await get('/api/admin/diskReport?includeBillable=true', 'admin');
      expect(res.status).toBe(200);
      const items = DiskReportSchema.parse(res.body);
      expect(Array.isArray(res.body)).toBe(true);
      expect(items.find((i) => i.ticker === t.A.ticker)).toMatchObject({ apiKey: t.A.apiKey });
      expect(items.find((i) => i.ticker === t.A.ticker)?.diskSpace).toBeGreaterThan(UPLOAD_CHUNK_BYTES * 2);
      // As an ASP.NET-style client writes it, and as the bare flag.
      for (const flag of ['includeBillable=True', 'includeBillable']) {
        const asked = DiskReportSchema.parse((await get(`/api/admin/diskReport?${flag}`, 'admin')).body);
        expect({ flag, tickers: asked.map((i) => i.ticker) }).toEqual({
          flag,
          tickers: expect.arrayContaining([t.A.ticker]),
        });
      }
      // Without it, only the stocks that do not pay (A has an API key; R has none).
      const unpaid = DiskReportSchema.parse((await get('/api/admin/diskReport', 'admin')).body);
      expect(unpaid.map((i) => i.ticker)).toEqual(expect.arrayContaining([t.R.ticker]));
      expect(unpaid.map((i) => i.ticker)).not.toContain(t.A.ticker);
    });
  });
}
