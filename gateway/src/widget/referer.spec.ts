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

  it('records nothing when still longer than 500 characters without the query', () => {
    const long = `https://example.com/${'a'.repeat(481)}`;
    expect(long.length).toBe(501);
    expect(widgetReferer(`${long}?q=1`)).toBeUndefined();
    expect(widgetReferer(long.slice(0, 500))).toBe(long.slice(0, 500));
  });
});
