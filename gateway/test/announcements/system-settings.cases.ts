import { SystemSettings, SystemSettingsSchema } from '@irp/proto';
import { AnnouncementsRun, DATE, DATE_UTC } from './announcements-harness';

/** The announcements service's system settings. */
export function systemSettingsCases(t: AnnouncementsRun) {
  const { get, post } = t;
  describe('GET and POST /api/admin/systemSettings', () => {
    let original: SystemSettings;

    beforeAll(async () => {
      original = SystemSettingsSchema.parse((await get('/api/admin/systemSettings', 'admin')).body);
    });
    afterAll(async () => {
      await post(
        '/api/admin/systemSettings',
        { ...original, disablePollUntil: original.disablePollUntil ?? '' },
        'admin',
      );
    });

    it('reads the settings; a fresh install without an ASX URL uses the mock source', async () => {
      const res = await get('/api/admin/systemSettings', 'admin');
      expect(res.status).toBe(200);
      expect(SystemSettingsSchema.strict().parse(res.body)).toEqual(res.body);
      expect(res.body.announcementService).toBe('mock');
    });

    it('saves every field and answers { success, settings, errorMessage }', async () => {
      const res = await post(
        '/api/admin/systemSettings',
        {
          announcementService: 'mock',
          errorEmail: 'ops@example.com',
          hourlyAutoSendLimit: '7',
          dailyAutoSendLimit: 25,
          disablePollUntil: DATE,
          useNightmare: false,
        },
        'admin',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        settings: {
          announcementService: 'mock',
          errorEmail: 'ops@example.com',
          hourlyAutoSendLimit: 7,
          dailyAutoSendLimit: 25,
          disablePollUntil: DATE_UTC,
          useNightmare: false,
        },
        errorMessage: null,
      });
      expect((await get('/api/admin/systemSettings', 'admin')).body).toEqual(res.body.settings);
    });

    it('refuses bad settings with 400 naming the problem, changing nothing', async () => {
      const before = (await get('/api/admin/systemSettings', 'admin')).body;
      const valid = { ...before, disablePollUntil: '' };
      const cases: Array<[object, string | RegExp]> = [
        [
          { ...valid, announcementService: 'nope' },
          'announcementService: must be one of asx, asx2, westpac, iress, mock',
        ],
        [{ ...valid, hourlyAutoSendLimit: -1 }, 'hourlyAutoSendLimit: must be 0 or more'],
        [{ ...valid, dailyAutoSendLimit: 'many' }, 'dailyAutoSendLimit: must be a number'],
        [{ ...valid, useNightmare: 'yes' }, 'useNightmare: must be true or false'],
        [{ ...valid, errorEmail: 'not-an-email' }, 'Error email not-an-email is not an email address'],
        [{ ...valid, disablePollUntil: 'someday' }, 'Unable to parse date someday'],
        // No ASX feed URL is configured for this service: the source cannot work, and the service says why.
        [{ ...valid, announcementService: 'asx' }, /ASX/],
      ];
      for (const [body, message] of cases) {
        const res = await post('/api/admin/systemSettings', body, 'admin');
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.errorMessage).toEqual(
          typeof message === 'string' ? message : expect.stringMatching(message),
        );
      }
      expect((await get('/api/admin/systemSettings', 'admin')).body).toEqual(before);
    });
  });
}
