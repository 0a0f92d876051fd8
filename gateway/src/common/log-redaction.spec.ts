import { REDACTED, redactUrl } from './log-redaction';

describe('redactUrl (the request log)', () => {
  it('redacts credential-like query values and keeps the rest', () => {
    expect(redactUrl('/api/widget/stock?apiKey=abc123&x=1')).toBe(`/api/widget/stock?apiKey=${REDACTED}&x=1`);
    // The count refuses a provider key in its query (400), and the request is logged without it all the same.
    expect(redactUrl('/api/EmailMarketingSubscriberCount?apiKey=k-us1&listId=l&clientId=&stockId=5')).toBe(
      `/api/EmailMarketingSubscriberCount?apiKey=${REDACTED}&listId=l&clientId=&stockId=5`,
    );
    expect(redactUrl('/x?token=t&password=p&client_secret=s&APIKEY=k&refresh%5Ftoken=r')).toBe(
      `/x?token=${REDACTED}&password=${REDACTED}&client_secret=${REDACTED}&APIKEY=${REDACTED}&refresh%5Ftoken=${REDACTED}`,
    );
    expect(redactUrl('/api/Announcement/list/BHP:ASX?page=2')).toBe('/api/Announcement/list/BHP:ASX?page=2');
  });

  it('redacts the token segments of the confirm and unsubscribe links', () => {
    const token = 'p8Yq3vZ0r1xW2-_aBcDeFgHiJkLmNoPqRsTuVwXyZ01';
    expect(redactUrl(`/api/subscription/confirm/${token}`)).toBe(`/api/subscription/confirm/${REDACTED}`);
    expect(redactUrl(`/api/subscription/unsubscribe/${token}`)).toBe(
      `/api/subscription/unsubscribe/${REDACTED}`,
    );
    expect(redactUrl(`/API/Subscription/Unsubscribe/${token}/?a=1`)).toBe(
      `/API/Subscription/Unsubscribe/${REDACTED}/?a=1`,
    );
    expect(redactUrl(`/subscription/unsubscribe/${token}`)).toBe(`/subscription/unsubscribe/${REDACTED}`);
    expect(redactUrl('/api/stock/BHP:ASX')).toBe('/api/stock/BHP:ASX');
  });
});
