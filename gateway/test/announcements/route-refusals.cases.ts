import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AnnouncementsRun, DATE } from './announcements-harness';

/** Every announcement route: signed out 401, the wrong role 403, nothing changed; the public ones open. */
export function routeRefusalCases(t: AnnouncementsRun) {
  const { sessions, get, post, saveForm, getBytes, listOf, find } = t;
  describe('every route: signed out 401, wrong role 403, nothing changed', () => {
    const systemSettingsBody = {
      announcementService: 'mock',
      errorEmail: 'hijack@example.com',
      hourlyAutoSendLimit: 1,
      dailyAutoSendLimit: 1,
      disablePollUntil: '',
      useNightmare: false,
    };
    /** What a refused change could have touched, read back as an admin. */
    const state = async () => ({
      a: await listOf(t.A.combinedTicker),
      settings: (await get('/api/admin/systemSettings', 'admin')).body as unknown,
      reconcile: (await get('/api/reconcile/last/', 'admin')).body as unknown,
    });
    const someId = randomUUID();
    const routes: Array<{ name: string; call: (who?: string) => request.Test; wrong: string[] }> = [
      {
        name: 'GET /api/Announcement/list/{combinedTicker}',
        call: (w) => get(`/api/Announcement/list/${t.A.combinedTicker}`, w),
        wrong: ['reports', 'viewer', 'other'],
      },
      {
        name: 'POST /api/Announcement/save/{combinedTicker}',
        call: (w) => saveForm(t.A.combinedTicker, { headline: 'Refused', date: DATE }, w, t.smallPdf),
        wrong: ['reports', 'viewer', 'sender', 'other'],
      },
      {
        name: 'POST /api/Announcement/delete/{combinedTicker}',
        call: (w) => post(`/api/Announcement/delete/${t.A.combinedTicker}`, { sendGuid: t.base.sendGuid }, w),
        wrong: ['reports', 'viewer', 'sender', 'other'],
      },
      {
        name: 'POST /api/Announcement/send/{combinedTicker}',
        call: (w) =>
          post(
            `/api/Announcement/send/${t.A.combinedTicker}?sendOverride=true`,
            { sendGuid: t.base.sendGuid },
            w,
          ),
        wrong: ['reports', 'viewer', 'editor', 'other'],
      },
      {
        name: 'POST /api/admin/sendConfirmationAnnouncementEmail/{combinedTicker}',
        call: (w) =>
          post(
            `/api/admin/sendConfirmationAnnouncementEmail/${t.A.combinedTicker}`,
            { sendGuid: t.base.sendGuid },
            w,
          ),
        wrong: ['reports', 'editor', 'sender'],
      },
      {
        name: 'POST /api/admin/resyncAnnouncements',
        call: (w) => post(`/api/admin/resyncAnnouncements?ticker=${t.A.combinedTicker}`, {}, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/admin/systemSettings',
        call: (w) => get('/api/admin/systemSettings', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/admin/systemSettings',
        call: (w) => post('/api/admin/systemSettings', systemSettingsBody, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/admin/fileCleanup',
        call: (w) => get('/api/admin/fileCleanup', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/admin/diskReport',
        call: (w) => get('/api/admin/diskReport?includeBillable=true', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/reconcile/run',
        call: (w) => post('/api/reconcile/run?numDays=1', {}, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/reconcile/get/{id}',
        call: (w) => get(`/api/reconcile/get/${someId}`, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/reconcile/apply/{id}',
        call: (w) => post(`/api/reconcile/apply/${someId}`, {}, w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'GET /api/reconcile/last/',
        call: (w) => get('/api/reconcile/last/', w),
        wrong: ['reports', 'editor'],
      },
      {
        name: 'POST /api/admin/sendEmail',
        call: (w) => post('/api/admin/sendEmail', { email: 'test@example.com' }, w),
        wrong: ['reports', 'editor'],
      },
    ];

    it('signed out is 401 on every route, and nothing changed', async () => {
      const before = await state();
      for (const route of routes) {
        const res = await route.call();
        expect({ route: route.name, status: res.status, body: res.body }).toEqual({
          route: route.name,
          status: 401,
          body: {
            statusCode: 401,
            error: 'Unauthorized',
            message: 'Not signed in',
            errorMessage: 'Not signed in',
          },
        });
      }
      expect(await state()).toEqual(before);
    });

    it('the wrong role is 403 on every route (report-runner, no role on the stock, another stock), and nothing changed', async () => {
      const before = await state();
      for (const route of routes)
        for (const who of route.wrong) {
          const res = await route.call(who);
          expect({ route: route.name, who, status: res.status }).toEqual({
            route: route.name,
            who,
            status: 403,
          });
          expect(res.body.error).toBe('Forbidden');
          expect(res.body.errorMessage).toMatch(
            /^(This needs the Admin role|You do not have the .* permission on )/,
          );
        }
      expect(await state()).toEqual(before);
    });

    it('names the missing role or permission', async () => {
      expect((await get('/api/admin/systemSettings', 'editor')).body.errorMessage).toBe(
        'This needs the Admin role',
      );
      expect((await get(`/api/Announcement/list/${t.A.combinedTicker}`, 'viewer')).body.errorMessage).toBe(
        `You do not have the EditAnnouncements or SendMailchimp permission on ${t.A.combinedTicker}`,
      );
      expect(
        (await post(`/api/Announcement/delete/${t.A.combinedTicker}`, { sendGuid: t.base.sendGuid }, 'other'))
          .body.errorMessage,
      ).toBe(`You do not have the EditAnnouncements permission on ${t.A.combinedTicker}`);
      expect(
        (await post(`/api/Announcement/send/${t.A.combinedTicker}`, { sendGuid: t.base.sendGuid }, 'editor'))
          .body.errorMessage,
      ).toBe(`You do not have the SendMailchimp permission on ${t.A.combinedTicker}`);
    });

    it('refuses a state change without the CSRF header', async () => {
      const res = await t.http
        .post(`/api/Announcement/delete/${t.A.combinedTicker}`)
        .set('Cookie', sessions.admin.cookie)
        .send({ sendGuid: t.base.sendGuid });
      expect(res.status).toBe(403);
      expect(res.body.errorMessage).toMatch(/CSRF/);
      expect((await find(t.A.combinedTicker, t.base.sendGuid))?.deletedOn).toBeNull();
    });

    it('lets the PDF and the widget routes be called signed out (public)', async () => {
      expect((await getBytes(t.base.pdfUrl!)).status).toBe(200);
      expect((await t.http.get(`/api/widget/announcements?apiKey=${t.A.apiKey}`)).status).toBe(200);
    });
  });
}
