import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { vendorInvalidAnswers } from '../metrics';
import { vendorCall, VendorError, vendorJson } from './vendor-call';
import { VendorHttpClient } from './vendor-http';

type Answer = { status: number; body?: string; headers?: Record<string, string> };

describe('vendorCall and vendorJson: one call shape, one VendorError', () => {
  let server: Server;
  let base: string;
  let answer: Answer;
  let seq = 0;
  const client = () =>
    new VendorHttpClient({
      vendor: `call-vendor-${++seq}`,
      baseUrls: [base],
      timeoutMs: 2000,
      baseDelayMs: 1,
      maxAttempts: 2,
    });
  const failure = async (call: Promise<unknown>): Promise<VendorError> => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VendorError);
    return error as VendorError;
  };
  const Things = z.object({ data: z.array(z.object({ id: z.number() })) });

  beforeAll(async () => {
    server = createServer((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  it('a 2xx JSON answer of the described shape is returned parsed', async () => {
    answer = { status: 200, body: JSON.stringify({ data: [{ id: 1 }], extra: true }) };
    const { body, response } = await vendorJson(client(), `${base}/things`, Things);
    expect(body).toEqual({ data: [{ id: 1 }] });
    expect(response.status).toBe(200);
  });

  it('404 is not-found; another 4xx is refused with the vendor message; both keep the status', async () => {
    answer = { status: 404, body: JSON.stringify({ error: { message: 'No such code' } }) };
    const missing = await failure(vendorJson(client(), `${base}/things`, Things));
    expect([missing.kind, missing.status, missing.vendorMessage]).toEqual(['not-found', 404, 'No such code']);
    answer = { status: 400, body: JSON.stringify({ message: 'date is invalid' }) };
    const refused = await failure(vendorCall(client(), `${base}/things`));
    expect([refused.kind, refused.status, refused.vendorMessage]).toEqual([
      'refused',
      400,
      'date is invalid',
    ]);
    expect(refused.message).toBe(`${base}/things answered 400: date is invalid`);
  });

  it('429 through every attempt is unavailable with the Retry-After asked for; 5xx too', async () => {
    answer = { status: 429, body: '{}', headers: { 'retry-after': '0' } };
    const busy = await failure(vendorCall(client(), `${base}/things`));
    expect([busy.kind, busy.status, busy.retryAfterMs]).toEqual(['unavailable', 429, 0]);
    answer = { status: 502, body: 'Bad Gateway' };
    const down = await failure(vendorCall(client(), `${base}/things`));
    expect([down.kind, down.status, down.vendorMessage]).toEqual(['unavailable', 502, 'Bad Gateway']);
  });

  it('no answer at all is unavailable with no status; a URL the guard refuses is refused with none', async () => {
    const closed = await failure(vendorCall(client(), 'http://127.0.0.1:1/things'));
    expect([closed.kind, closed.status]).toEqual(['refused', null]);
    const gone = new VendorHttpClient({
      vendor: `call-vendor-${++seq}`,
      baseUrls: ['http://127.0.0.1:1'],
      timeoutMs: 500,
      baseDelayMs: 1,
      maxAttempts: 1,
    });
    const unreachable = await failure(vendorCall(gone, 'http://127.0.0.1:1/things'));
    expect([unreachable.kind, unreachable.status]).toEqual(['unavailable', null]);
  });

  it('a body that is not JSON, or not the described shape, is invalid-answer naming the mismatch', async () => {
    answer = { status: 200, body: '<html>' };
    const html = await failure(vendorJson(client(), `${base}/things`, Things));
    expect([html.kind, html.message]).toEqual([
      'invalid-answer',
      `${base}/things answered a body that is not JSON`,
    ]);
    answer = { status: 200, body: JSON.stringify({ data: [{ id: 'one' }] }) };
    const shaped = client();
    const shape = await failure(vendorJson(shaped, `${base}/things`, Things));
    expect(shape.kind).toBe('invalid-answer');
    expect(shape.message).toMatch(/data\.0\.id: Expected number, received string/);
    // Counted for the vendor (irp_vendor_invalid_answers_total), whichever adapter called.
    const counted = await vendorInvalidAnswers.get();
    expect(counted.values.find((v) => v.labels.vendor === shaped.vendor)?.value).toBe(1);
  });

  it('a status the caller accepts is an answer (304 Not Modified)', async () => {
    answer = { status: 304 };
    expect((await vendorCall(client(), `${base}/things`, { accept: [304] })).status).toBe(304);
    const unaccepted = await failure(vendorCall(client(), `${base}/things`));
    expect([unaccepted.kind, unaccepted.status]).toEqual(['invalid-answer', 304]);
  });
});
