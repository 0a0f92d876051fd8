import { widgetReferer } from './referer';

describe('widgetReferer', () => {
  it.each([
    ['https://investors.example.com/shares?utm_source=x#price', 'https://investors.example.com/shares'],
    ['http://example.com/a/b/?q=1', 'http://example.com/a/b/'],
    ['https://Example.COM', 'https://example.com/'],
    ['https://user:secret@example.com/page', 'https://example.com/page'],
    ['  https://example.com/x#top  ', 'https://example.com/x'],
  ])('keeps %s as %s', (header, kept) => expect(widgetReferer(header)).toBe(kept));

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['a relative path', '/shares'],
    ['another scheme', 'ftp://example.com/file'],
    ['javascript', 'javascript:alert(1)'],
    ['a data URL', 'data:text/html,hi'],
    ['rubbish', 'not a url'],
  ])('records nothing for %s', (_, header) => expect(widgetReferer(header)).toBeUndefined());

  it('keeps the origin and path cut to 200 characters, whatever the query adds', () => {
    const long = `https://example.com/${'a'.repeat(481)}`;
    const kept = widgetReferer(`${long}?q=${'b'.repeat(300)}#${'c'.repeat(300)}`);
    expect(kept).toBe(long.slice(0, 200));
    expect(kept).toHaveLength(200);
    const short = 'https://example.com/shares';
    expect(widgetReferer(`${short}?q=1`)).toBe(short);
  });

  it('keeps a port and drops credentials, query and fragment', () => {
    expect(widgetReferer('https://u:p@investors.example.com:8443/a?token=x#y')).toBe(
      'https://investors.example.com:8443/a',
    );
  });
});
