import { announcementMail, announcementMailRenderer } from './templates';

const announcement = {
  id: '9d0c5f7e-6a39-4c55-8d5c-3f1f2d0c4a11',
  headline: 'Results <b>& "guidance"</b> – Appendix 4E ✓',
  date: '2026-11-20T22:15:00.000Z',
  priceSensitive: true,
  pdfUrl: '/api/Announcement/read-file/BHP:ASX/abc.pdf',
  remotePath: '',
  sendGuid: 'g-1',
} as unknown as Parameters<typeof announcementMail>[0]['announcement'];
const send = {
  stock: {
    ticker: 'BHP',
    exchange: 'ASX',
    companyName: 'Smith & Sons <Pty>',
    companyLogoUrl: 'https://x.example/l.png',
  },
  announcement,
  publicBaseUrl: 'http://127.0.0.1:3000',
};

describe('announcementMailRenderer', () => {
  it("gives each subscriber the very mail announcementMail renders with the subscriber's links", () => {
    const render = announcementMailRenderer(send);
    for (const links of [
      {
        unsubscribeUrl: 'http://127.0.0.1:3000/unsubscribe/tok-1',
        oneClickUrl: 'http://127.0.0.1:3000/api/one/tok-1',
        preferencesUrl: 'http://127.0.0.1:3000/preferences/tok-1',
      },
      // Characters the HTML escapes, where the template escapes them and nowhere else.
      {
        unsubscribeUrl: 'http://h.example/u?a=1&b="2"<x>',
        oneClickUrl: 'http://h.example/o?a=1&b=2',
        preferencesUrl: 'http://h.example/p?a=1&b=<3>',
      },
    ])
      expect(render(links)).toEqual(announcementMail({ ...send, ...links }));
  });
});
