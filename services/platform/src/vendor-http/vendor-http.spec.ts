import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { metricsRegistry } from '../metrics';
import {
  isPublicAddress,
  retryAfterMs,
  VendorHttpClient,
  VendorHttpConfig,
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
    handler = () => undefined; // never answers
    const started = Date.now();
    const error = await client({ timeoutMs: 200, maxAttempts: 2 })
      .request(`${standIn.url}/slow`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorUnavailableError);
    expect(error).toMatchObject({ timedOut: true, attempts: 2, status: null });
    expect(Date.now() - started).toBeLessThan(2000);
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

  it('strips the vendor’s credentials when a redirect leaves its origin', async () => {
    const seen: Array<string | undefined> = [];
    const second = await listen((req, res) => {
      seen.push(req.headers.authorization);
      res.end('ok');
    });
    try {
      handler = (req, res) => {
        seen.push(req.headers.authorization);
        res.writeHead(302, { location: `${second.url}/x` }).end();
      };
      await client({ baseUrls: [standIn.url, second.url] }).request(`${standIn.url}/a`, {
        headers: { authorization: 'Bearer k' },
      });
      expect(seen).toEqual(['Bearer k', undefined]);
    } finally {
      await close(second.server);
    }
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
