import { z } from 'zod';
import { faultsFromEnv } from './faults';
import { HttpError, StandInServer, parseWith, readJson, sendJson, startStandInServer } from './http-standin';

/** A vendor of two routes in one group, a keyed route, and an error shape of its own. */
async function vendor(): Promise<StandInServer> {
  return startStandInServer({
    routes: [
      {
        method: 'GET',
        path: '/items',
        name: 'items',
        group: 'api',
        handle: ({ res }) => sendJson(res, 200, { items: [1, 2] }),
      },
      {
        method: 'GET',
        path: /^\/companies\/([^/]+)$/,
        name: 'company',
        group: 'api',
        faultKey: ({ params }) => params[0],
        handle: ({ res, params }) => sendJson(res, 200, { code: params[0] }),
      },
      {
        method: 'POST',
        path: '/echo',
        name: 'echo',
        handle: async ({ req, res }) =>
          sendJson(res, 201, parseWith(z.object({ n: z.number() }), await readJson(req))),
      },
      {
        method: 'GET',
        path: '/teapot',
        name: 'teapot',
        handle: () => {
          throw new HttpError(418, 'short and stout', 7);
        },
      },
    ],
    health: () => ({ status: 'ok', vendor: 'test' }),
    errorBody: (_status, message, code, path) => ({ body: { Code: code, Message: message, path } }),
  });
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the stand-in kit', () => {
  let server: StandInServer;
  beforeEach(async () => {
    server = await vendor();
  });
  afterEach(() => server.close());

  it('listens on 127.0.0.1, answers its routes, health and 404 in the vendor shape', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect((await fetch(`${server.url}/items`)).json()).resolves.toEqual({ items: [1, 2] });
    await expect((await fetch(`${server.url}/companies/BHP`)).json()).resolves.toEqual({ code: 'BHP' });
    const health = await fetch(`${server.url}/standin/health`);
    expect(health.status).toBe(200);
    await expect(health.json()).resolves.toEqual({ status: 'ok', vendor: 'test' });
    const missing = await fetch(`${server.url}/nowhere`);
    expect(missing.status).toBe(404);
    await expect(missing.json()).resolves.toEqual({
      Code: 404,
      Message: 'No route GET /nowhere',
      path: '/nowhere',
    });
    const teapot = await fetch(`${server.url}/teapot`);
    expect(teapot.status).toBe(418);
    await expect(teapot.json()).resolves.toMatchObject({ Code: 7, Message: 'short and stout' });
  });

  it('reads JSON bodies and answers 400 for one that is not JSON or not the shape', async () => {
    expect((await post(`${server.url}/echo`, { n: 3 })).status).toBe(201);
    const notJson = await fetch(`${server.url}/echo`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
    await expect(notJson.json()).resolves.toMatchObject({ Message: 'body is not JSON' });
    const wrong = await post(`${server.url}/echo`, { n: 'three' });
    expect(wrong.status).toBe(400);
    await expect(wrong.json()).resolves.toMatchObject({ Message: expect.stringMatching(/^n: /) });
  });

  it('fails the next N requests of a route with a status, then answers again', async () => {
    server.faults.set({ kind: 'fail', route: 'items', status: 503, times: 2 });
    expect((await fetch(`${server.url}/items`)).status).toBe(503);
    expect((await fetch(`${server.url}/companies/BHP`)).status).toBe(200); // another route
    expect((await fetch(`${server.url}/items`)).status).toBe(503);
    expect((await fetch(`${server.url}/items`)).status).toBe(200);
    expect(server.requests('items')).toBe(3);
    expect(server.requests('api')).toBe(4);
  });

  it('answers 429 with Retry-After, set over the control endpoint', async () => {
    const set = await post(`${server.url}/standin/faults`, {
      kind: 'fail',
      route: 'api',
      status: 429,
      retryAfterSeconds: 7,
      times: 1,
    });
    expect(set.status).toBe(200);
    const limited = await fetch(`${server.url}/companies/CBA`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await expect(limited.json()).resolves.toMatchObject({ Code: 429 });
    expect((await fetch(`${server.url}/companies/CBA`)).status).toBe(200);
  });

  it('delays a route by N ms', async () => {
    server.faults.set({ kind: 'delay', route: 'items', ms: 400, times: 1 });
    let started = Date.now();
    expect((await fetch(`${server.url}/items`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    started = Date.now();
    await fetch(`${server.url}/items`);
    expect(Date.now() - started).toBeLessThan(380);
  });

  it('holds the requests of one key until the hold is released over the control endpoint', async () => {
    server.faults.set({ kind: 'hold', route: 'company', key: 'BHP' });
    let answered = false;
    const held = fetch(`${server.url}/companies/BHP`).then((r) => ((answered = true), r));
    expect((await fetch(`${server.url}/companies/CBA`)).status).toBe(200); // another key answers
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    const listed = await (await fetch(`${server.url}/standin/faults`)).json();
    expect(listed).toEqual({ faults: [{ kind: 'hold', route: 'company', key: 'BHP' }] });
    expect((await fetch(`${server.url}/standin/faults?kind=hold`, { method: 'DELETE' })).status).toBe(200);
    expect((await held).status).toBe(200);
  });

  it('ends a held request with close(), so a forgotten hold cannot hang a test', async () => {
    server.faults.set({ kind: 'hold' });
    const held = fetch(`${server.url}/items`).then(
      (r) => r.status,
      () => 'closed',
    );
    await new Promise((r) => setTimeout(r, 100));
    await server.close();
    await expect(held).resolves.toBe('closed');
    server = await vendor(); // afterEach closes this one
  });

  it('refuses a rule it does not know', async () => {
    const wrong = await post(`${server.url}/standin/faults`, { kind: 'explode' });
    expect(wrong.status).toBe(400);
    expect(server.faults.list()).toEqual([]);
  });

  it('reads rules from STANDIN_FAULTS', () => {
    expect(faultsFromEnv({})).toEqual([]);
    expect(
      faultsFromEnv({ STANDIN_FAULTS: '[{"kind":"fail","route":"feed","status":503,"times":3}]' }),
    ).toEqual([{ kind: 'fail', route: 'feed', status: 503, times: 3 }]);
    expect(() => faultsFromEnv({ STANDIN_FAULTS: '[{"kind":"delay"}]' })).toThrow(/STANDIN_FAULTS: 0.ms/);
  });
});
