// The dom tests' environment (jsdomEnvironment.ts): what the app hands Node's fetch there is what it takes,
// and FormData is still made from a form as the DOM's is.
import { describe, expect, it } from 'vitest';

describe("the dom tests' environment", () => {
  it('takes a signal from the global AbortController into a Request, and aborting it aborts the request', () => {
    const controller = new AbortController();
    const request = new Request('http://portal.test/api/stock', { signal: controller.signal });
    expect(request.signal.aborted).toBe(false);
    controller.abort();
    expect(request.signal.aborted).toBe(true);
  });

  it('sends a FormData body as multipart, its File as a file part', async () => {
    const body = new FormData();
    body.append('headline', 'Results');
    body.append('file', new File(['%PDF-1.4'], 'results.pdf', { type: 'application/pdf' }));
    const request = new Request('http://portal.test/api/Announcement/save', { method: 'POST', body });
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const received = await request.formData();
    expect(received.get('headline')).toBe('Results');
    const file = received.get('file');
    if (!(file instanceof File)) throw new Error('the file part came back as text');
    expect([file.name, file.type, await file.text()]).toEqual(['results.pdf', 'application/pdf', '%PDF-1.4']);
  });

  it("makes a FormData from a form and its submitter, as React does on a form's submit", () => {
    const form = document.createElement('form');
    form.innerHTML = '<input name="username" value="admin"><button name="go" value="login">Login</button>';
    const data = new FormData(form, form.querySelector('button'));
    expect([...data]).toEqual([
      ['username', 'admin'],
      ['go', 'login'],
    ]);
  });
});
