import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyHtmlToClipboard } from './clipboard';

class FakeClipboardItem {
  constructor(readonly items: Record<string, Blob>) {}
}

/** jsdom's Blob has no text(): read it as a browser reads a file. */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

describe('copyHtmlToClipboard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('writes text/html with a plain-text fallback when ClipboardItem exists', async () => {
    const write = vi.fn().mockResolvedValue(undefined);
    const writeText = vi.fn();
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    vi.stubGlobal('navigator', { clipboard: { write, writeText } });
    await copyHtmlToClipboard('<p>Please pay <b>INV-1</b></p>');
    expect(writeText).not.toHaveBeenCalled();
    const [[items]] = write.mock.calls as [[FakeClipboardItem[]]];
    const item = items[0]!;
    expect(Object.keys(item.items)).toEqual(['text/html', 'text/plain']);
    expect(await textOf(item.items['text/html']!)).toBe('<p>Please pay <b>INV-1</b></p>');
    expect(await textOf(item.items['text/plain']!)).toBe('Please pay INV-1');
  });

  it('falls back to writeText without ClipboardItem', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('ClipboardItem', undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    await copyHtmlToClipboard('<p>x</p>');
    expect(writeText).toHaveBeenCalledWith('<p>x</p>');
  });

  it('rejects when there is no clipboard', async () => {
    vi.stubGlobal('navigator', {});
    await expect(copyHtmlToClipboard('<p>x</p>')).rejects.toThrow('The clipboard is not available');
  });
});
