import { randomUUID } from 'node:crypto';
import { ReconcileSchema } from '@irp/proto';
import { until } from '../gateway-harness';
import { AnnouncementsRun } from './announcements-harness';

/** Reconciling the announcements with the source: run, progress, apply. */
export function reconcileCases(t: AnnouncementsRun) {
  const { get, post } = t;
  describe('/api/reconcile', () => {
    it('answers null for the last run before any ran', async () => {
      const res = await get('/api/reconcile/last/', 'admin');
      expect(res.status).toBe(200);
      expect(res.text).toBe('null');
    });

    it('runs, reports progress by id, applies and shows the last run', async () => {
      const run = await post('/api/reconcile/run?numDays=1', {}, 'admin');
      expect(run.status).toBe(200);
      const started = ReconcileSchema.parse(run.body);
      expect(started.numDays).toBe(1);
      const done = await until(
        async () => ReconcileSchema.parse((await get(`/api/reconcile/get/${started.id}`, 'admin')).body),
        (r) => r.status !== 'running',
        'the reconcile run finishing',
        45_000,
      );
      expect(done).toMatchObject({ id: started.id, status: 'completed', error: null });
      const last = await get('/api/reconcile/last/', 'admin');
      expect(last.body.id).toBe(started.id);

      const applied = await post(`/api/reconcile/apply/${started.id}`, {}, 'admin');
      expect(applied.status).toBe(200);
      expect(ReconcileSchema.parse(applied.body)).toMatchObject({ id: started.id, status: 'applied' });
      expect(applied.body.applied).toEqual(expect.any(Number));
      const again = await post(`/api/reconcile/apply/${started.id}`, {}, 'admin');
      expect(again.status).toBe(400);
      expect(again.body.errorMessage).toBe('This reconcile has already been applied');
    });

    it('refuses numDays outside 1..90 and ids that are not ids (400), and unknown ids (404)', async () => {
      const before = (await get('/api/reconcile/last/', 'admin')).body;
      for (const [query, message] of [
        ['numDays=0', 'numDays: must be from 1 to 90 days'],
        ['numDays=91', 'numDays: must be from 1 to 90 days'],
        ['numDays=many', 'numDays: must be a number of days'],
      ]) {
        const res = await post(`/api/reconcile/run?${query}`, {}, 'admin');
        expect({ query, status: res.status, errorMessage: res.body.errorMessage }).toEqual({
          query,
          status: 400,
          errorMessage: message,
        });
      }
      expect((await get('/api/reconcile/last/', 'admin')).body).toEqual(before);
      const bad = await get('/api/reconcile/get/nope', 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.errorMessage).toBe('must be a reconcile id');
      expect((await get(`/api/reconcile/get/${randomUUID()}`, 'admin')).status).toBe(404);
      expect((await post(`/api/reconcile/apply/${randomUUID()}`, {}, 'admin')).status).toBe(404);
    });
  });
}
