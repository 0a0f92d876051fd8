/**
 * Puts HTML on the clipboard so it pastes formatted into a mail client, with its text as plain text for
 * editors that take only that (ClipboardItem where the browser has it; else the HTML source as text).
 * Rejects when the browser refuses (no permission, insecure context); callers show the error (spec
 * section 8: a clipboard failure is an alert of the error).
 */
export async function copyHtmlToClipboard(html: string): Promise<void> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard) throw new Error('The clipboard is not available in this browser');
  if (typeof ClipboardItem !== 'undefined' && typeof clipboard.write === 'function') {
    const plain = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? html;
    await clipboard.write([
      new ClipboardItem({
        'text/html': new Blob([html], { type: 'text/html' }),
        'text/plain': new Blob([plain], { type: 'text/plain' }),
      }),
    ]);
    return;
  }
  await clipboard.writeText(html);
}
