import { AnnouncementsRun } from './announcements-harness';

/** The announcement routes in the OpenAPI document: the upload as multipart, the PDF as a file. */
export function openApiCases(t: AnnouncementsRun) {
  it('documents every announcement route in OpenAPI, the upload as multipart and the PDF as a file', async () => {
    const json = await t.http.get('/api/docs-json');
    expect(json.status).toBe(200);
    const paths = json.body.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/Announcement/list/{combinedTicker}',
        '/api/Announcement/save/{combinedTicker}',
        '/api/Announcement/delete/{combinedTicker}',
        '/api/Announcement/send/{combinedTicker}',
        '/api/Announcement/pdf/{sendGuid}',
        '/api/admin/sendConfirmationAnnouncementEmail/{combinedTicker}',
        '/api/admin/resyncAnnouncements',
        '/api/admin/systemSettings',
        '/api/admin/fileCleanup',
        '/api/admin/diskReport',
        '/api/reconcile/run',
        '/api/reconcile/get/{id}',
        '/api/reconcile/apply/{id}',
        '/api/reconcile/last',
        '/api/admin/sendEmail',
        '/api/widget/announcements',
        '/api/widget/announcement',
      ]),
    );
    const upload = paths['/api/Announcement/save/{combinedTicker}'].post.requestBody as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    expect(upload.content['multipart/form-data'].schema.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    const pdf = paths['/api/Announcement/pdf/{sendGuid}'].get.responses as Record<
      string,
      { content: object }
    >;
    expect(Object.keys(pdf['200'].content)).toEqual(['application/pdf']);
  });
}
