import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { z } from 'zod';
import { metricsRegistry } from '../metrics';
import {
  isPublicAddress,
  retryAfterMs,
  VendorHttpClient,
  refineVendorUrls,
  vendorUrl,
  VendorHttpConfig,
  VendorRedirectRefusedError,
  VendorRequestRefusedError,
  VendorResponseTooLargeError,
  VendorUnavailableError,
} from './vendor-http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 whose answer each test sets. */
async function listen(handler: Handler): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, port };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** A resolver that answers every name with `address` and records what it was asked. */
function fixedLookup(address: string, asked: string[] = []): LookupFunction {
  return (hostname, options, callback) => {
    asked.push(hostname);
    const family = address.includes(':') ? 6 : 4;
    if ((options as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

let vendorSeq = 0;

describe('VendorHttpClient', () => {
  let handler: Handler;
  let standIn: { server: Server; url: string; port: number };
  let other: { server: Server; url: string; port: number };
  let otherHits: number;

  const client = (extra: Partial<VendorHttpConfig> = {}) =>
    new VendorHttpClient({
      vendor: `test-vendor-${++vendorSeq}`,
      baseUrls: [standIn.url],
      timeoutMs: 2000,
      baseDelayMs: 10,
      ...extra,
    });

  beforeAll(async () => {
    standIn = await listen((req, res) => handler(req, res));
    other = await listen((_req, res) => {
      otherHits++;
      res.end('secret from a server that is not the vendor');
    });
  });
  afterAll(async () => {
    await close(standIn.server);
    await close(other.server);
  });
  beforeEach(() => {
    otherHits = 0;
    handler = (_req, res) => res.end('ok');
  });

  it('fetches from the configured stand-in on 127.0.0.1', async () => {
    const answer = await client().request(`${standIn.url}/feed`);
    expect(answer).toMatchObject({ status: 200, url: `${standIn.url}/feed`, attempts: 1 });
    expect(answer.body.toString()).toBe('ok');
  });

  it('refuses a URL on a host that is not the vendor’s, before connecting', async () => {
    await expect(client().request('http://example.com/x')).rejects.toBeInstanceOf(VendorRequestRefusedError);
    // Another port of 127.0.0.1 is not the stand-in: loopback is refused there.
    await expect(client().request(`${other.url}/x`)).rejects.toThrow(/may not reach/);
    expect(otherHits).toBe(0);
  });

  it('refuses a redirect to 127.0.0.1 that is not the configured stand-in', async () => {
    handler = (_req, res) => res.writeHead(302, { location: `${other.url}/secret` }).end();
    const error = await client()
      .request(`${standIn.url}/doc`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorRequestRefusedError);
    expect((error as Error).message).toMatch(/127\.0\.0\.1.*may not reach/);
    expect(otherHits).toBe(0);
  });

  it('refuses a redirect to the cloud metadata address 169.254.169.254, even when its host is allowed', async () => {
    handler = (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    await expect(client().request(`${standIn.url}/doc`)).rejects.toThrow(/not a host of/);
    await expect(client({ allowedHosts: ['169.254.169.254'] }).request(`${standIn.url}/doc`)).rejects.toThrow(
      /169\.254\.169\.254.*may not reach/,
    );
  });

  it('refuses a redirect to an allowed name that resolves to a private range, checked at connect time', async () => {
    const asked: string[] = [];
    handler = (_req, res) =>
      res.writeHead(301, { location: `http://cdn.vendor.test:${other.port}/pdf` }).end();
    const error = await client({ allowedHosts: ['*.vendor.test'], lookup: fixedLookup('10.1.2.3', asked) })
      .request(`${standIn.url}/doc`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorRequestRefusedError);
    expect((error as Error).message).toMatch(/cdn\.vendor\.test.*10\.1\.2\.3/);
    // The name was resolved by the socket's own lookup (the one the connection uses), not beforehand.
    expect(asked).toEqual(['cdn.vendor.test']);
  });

  it('refuses an allowed name that resolves to loopback (DNS rebinding onto a local service)', async () => {
    const error = await client({ allowedHosts: ['docs.vendor.test'], lookup: fixedLookup('127.0.0.1') })
      .request(`http://docs.vendor.test:${other.port}/secret`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorRequestRefusedError);
    expect(otherHits).toBe(0);
  });

  it('follows a redirect within the stand-in and reports the final URL', async () => {
    handler = (req, res) =>
      req.url === '/a' ? res.writeHead(302, { location: '/b' }).end() : res.end(`at ${req.url}`);
    const answer = await client().request(`${standIn.url}/a`);
    expect(answer.url).toBe(`${standIn.url}/b`);
    expect(answer.body.toString()).toBe('at /b');
  });

  it('retries 429 and 503 honouring Retry-After, then succeeds', async () => {
    const times: number[] = [];
    handler = (_req, res) => {
      times.push(Date.now());
      if (times.length === 1) return res.writeHead(429, { 'retry-after': '1' }).end();
      if (times.length === 2) return res.writeHead(503, { 'retry-after': '1' }).end();
      res.end('ok');
    };
    const answer = await client({ maxAttempts: 3, baseDelayMs: 1 }).request(`${standIn.url}/busy`);
    expect(answer).toMatchObject({ status: 200, attempts: 3 });
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(950);
  });

  it('counts each 429 in irp_vendor_rate_limited_total by vendor, and nothing else', async () => {
    const rateLimited = async (vendor: string) => {
      const metric = await metricsRegistry.getSingleMetric('irp_vendor_rate_limited_total')!.get();
      return metric.values.find((v) => v.labels.vendor === vendor)?.value ?? 0;
    };
    let hits = 0;
    handler = (_req, res) => (++hits <= 2 ? res.writeHead(429).end() : res.writeHead(503).end());
    const busy = client({ maxAttempts: 3, baseDelayMs: 1 });
    await busy.request(`${standIn.url}/busy`);
    expect(await rateLimited(busy.vendor)).toBe(2);
    handler = (_req, res) => res.end('ok');
    await busy.request(`${standIn.url}/fine`);
    expect(await rateLimited(busy.vendor)).toBe(2);
  });

  it('answers the last 5xx after every attempt, and does not retry when told not to', async () => {
    let hits = 0;
    handler = (_req, res) => {
      hits++;
      res.writeHead(500).end('down');
    };
    const answer = await client({ maxAttempts: 3 }).request(`${standIn.url}/down`);
    expect(answer).toMatchObject({ status: 500, attempts: 3 });
    expect(hits).toBe(3);
    await client({ maxAttempts: 3 }).request(`${standIn.url}/down`, { retry: false });
    expect(hits).toBe(4);
  });

  it('gives up after the timeout on every attempt', async () => {
    handler = () => undefined; // never answers: only the timeout ends each attempt (no elapsed time asserted)
    const error = await client({ timeoutMs: 200, maxAttempts: 2 })
      .request(`${standIn.url}/slow`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorUnavailableError);
    expect(error).toMatchObject({ timedOut: true, attempts: 2, status: null });
  });

  it('caps the response size, declared or streamed', async () => {
    handler = (req, res) => {
      if (req.url === '/declared')
        return res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
      res.writeHead(200); // chunked: no length declared
      res.write('y'.repeat(3000));
      res.end('y'.repeat(3000));
    };
    const small = client({ maxResponseBytes: 4096 });
    await expect(small.request(`${standIn.url}/declared`)).rejects.toBeInstanceOf(
      VendorResponseTooLargeError,
    );
    await expect(small.request(`${standIn.url}/streamed`)).rejects.toBeInstanceOf(
      VendorResponseTooLargeError,
    );
    expect((await small.request(`${standIn.url}/x`, { maxResponseBytes: 10_000 })).body.length).toBe(6000);
  });

  it('keeps at most maxConcurrent requests of a vendor in flight, across its clients', async () => {
    let inFlight = 0;
    let most = 0;
    handler = (_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, 50);
    };
    const vendor = `shared-${++vendorSeq}`;
    const a = client({ vendor, maxConcurrent: 2 });
    const b = client({ vendor, maxConcurrent: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).request(`${standIn.url}/${i}`)));
    expect(most).toBe(2);
  });

  it('starts no more than perMinute requests in a minute', async () => {
    // The limiter's clock is faked (sockets are not): the fourth request is shown waiting for the
    // minute to roll, then starting when it has.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      let hits = 0;
      handler = (_req, res) => {
        hits++;
        res.end('ok');
      };
      const limited = client({ perMinute: 3 });
      const all = Array.from({ length: 4 }, (_, i) => limited.request(`${standIn.url}/${i}`));
      await Promise.all(all.slice(0, 3));
      jest.advanceTimersByTime(59_000);
      expect(hits).toBe(3);
      jest.advanceTimersByTime(1_000);
      await all[3];
      expect(hits).toBe(4);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('a request carrying credentials never follows a redirect', () => {
    let seen: string[];
    beforeEach(() => {
      seen = [];
      handler = (req, res) => {
        seen.push(req.url ?? '');
        if (req.url?.startsWith('/moved')) return res.end('moved here');
        res.writeHead(302, { location: `${standIn.url}/moved` }).end();
      };
    });
    const refusal =
      /answered 302 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/moved\), not followed: the request carries credentials \((.+)\)$/;

    it('an Authorization header: the answer is an error saying so, and the new location is never asked', async () => {
      const asked = client().request(`${standIn.url}/a`, { headers: { Authorization: 'Bearer k' } });
      await expect(asked).rejects.toBeInstanceOf(VendorRedirectRefusedError);
      await expect(asked).rejects.toThrow(refusal);
      await expect(asked).rejects.toMatchObject({
        status: 302,
        message: expect.stringContaining('(authorization)'),
      });
      expect(seen.every((url) => url === '/a')).toBe(true);
    });

    it('a key in the client’s own headers (X-Api-Key) or in the query string, never retried', async () => {
      await expect(client({ headers: { 'X-Api-Key': 'k' } }).request(`${standIn.url}/a`)).rejects.toThrow(
        /the request carries credentials \(x-api-key\)$/,
      );
      await expect(client().request(`${standIn.url}/a?apikey=k&code=BHP`)).rejects.toThrow(
        /the request carries credentials \(the apikey parameter\)$/,
      );
      expect(seen).toEqual(['/a', '/a?apikey=k&code=BHP']);
    });

    it('without credentials the redirect is followed as before', async () => {
      const answer = await client({ headers: { accept: 'application/json' } }).request(
        `${standIn.url}/a?code=BHP`,
      );
      expect(answer.body.toString()).toBe('moved here');
      expect(seen).toEqual(['/a?code=BHP', '/moved']);
    });
  });
});

describe('vendor URLs in production', () => {
  const schema = z.object({
    NODE_ENV: z.string().default('development'),
    FEED_BASE_URL: vendorUrl('FEED_BASE_URL'),
    OTHER_BASE_URL: vendorUrl('OTHER_BASE_URL'),
  });
  const checked = schema.superRefine((c, ctx) =>
    refineVendorUrls(c, ctx, ['FEED_BASE_URL', 'OTHER_BASE_URL']),
  );
  const problems = (env: Record<string, string>) => {
    const parsed = checked.safeParse(env);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('refuses every configured vendor URL that is not https, naming each', () => {
    expect(
      problems({
        NODE_ENV: 'production',
        FEED_BASE_URL: 'http://feed.example/api/',
        OTHER_BASE_URL: 'HTTP://other.example',
      }),
    ).toEqual([
      'FEED_BASE_URL: must be an https:// URL in production (http://feed.example/api): a vendor is only spoken to over TLS',
      'OTHER_BASE_URL: must be an https:// URL in production (HTTP://other.example): a vendor is only spoken to over TLS',
    ]);
  });

  it('takes https, an unset URL, and plain http outside production (the stand-ins of make up and the tests)', () => {
    expect(problems({ NODE_ENV: 'production', FEED_BASE_URL: 'https://feed.example/' })).toEqual([]);
    expect(problems({ NODE_ENV: 'production' })).toEqual([]);
    expect(problems({ FEED_BASE_URL: 'http://127.0.0.1:3257' })).toEqual([]);
    expect(checked.parse({ FEED_BASE_URL: ' https://feed.example/api// ' }).FEED_BASE_URL).toBe(
      'https://feed.example/api',
    );
    expect(problems({ FEED_BASE_URL: 'ftp://feed.example' })).toEqual([
      'FEED_BASE_URL: FEED_BASE_URL must be an http(s):// URL',
    ]);
  });
});

describe('address and header helpers', () => {
  it('judges public and special addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
    ])
      expect(isPublicAddress(a)).toBe(false);
    expect(isPublicAddress('fe80::1')).toBe(false);
    expect(isPublicAddress('fd00::1')).toBe(false);
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
  });

  it('reads Retry-After as seconds or a date, capped', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('3600', 5000)).toBe(5000);
    expect(retryAfterMs(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
