import { it, expect } from 'vitest';
it('formdata through Request', { timeout: 20000 }, async () => {
  const fd = new FormData();
  fd.append('headline', 'Hello');
  fd.append('file', new File(['%PDF-1.4 x'], 'a.pdf', { type: 'application/pdf' }));
  console.log('FD kind', Object.prototype.toString.call(fd), typeof (fd as unknown as {[Symbol.iterator]: unknown})[Symbol.iterator]);
  const r = new Request('http://localhost/api/x', { method: 'POST', body: fd });
  console.log('CT', r.headers.get('content-type'));
  const buf = await r.arrayBuffer();
  console.log('LEN', buf.byteLength, new TextDecoder().decode(buf).slice(0,200));
  expect(1).toBe(1);
});
