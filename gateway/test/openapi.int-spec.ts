import { allRoutes, describeAccess } from '@irp/proto';
import { INestApplication } from '@nestjs/common';
import { loadTestEnv } from '@irp/platform/testing';
import request from 'supertest';
import { nestPathOf } from '../src/routing/route';
import { startTestGateway } from './gateway-harness';

jest.setTimeout(300_000);

type Operation = {
  operationId?: string;
  'x-access'?: { summary: string; kind: string };
  security?: Record<string, string[]>[];
};

/** /api/docs is generated from the route table: every entry is an operation stating who may call it. */
describe('the OpenAPI document at /api/docs', () => {
  let gateway: INestApplication;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    loadTestEnv();
    ({ gateway, http } = await startTestGateway());
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('lists every route of the table once, with its access rule (x-access) and security scheme', async () => {
    const res = await http.get('/api/docs-json').expect(200);
    const paths = res.body.paths as Record<string, Record<string, Operation>>;
    const operations = Object.entries(paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    const entries = allRoutes();
    expect(operations).toHaveLength(entries.length);
    for (const entry of entries) {
      // Swagger writes `{x}` and drops a trailing slash.
      const path = nestPathOf(entry.path)
        .replace(/:([A-Za-z0-9_]+)/g, '{$1}')
        .replace(/(.)\/$/, '$1');
      const found = operations.find((o) => o.path === path && o.method === entry.method);
      expect({ id: entry.id, found: !!found }).toEqual({ id: entry.id, found: true });
      const op = found!.op;
      expect(op.operationId).toBe(entry.id);
      expect(op['x-access']).toMatchObject({
        kind: entry.access.kind,
        summary: describeAccess(entry.access),
      });
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      if (entry.access.kind === 'signedIn') expect(schemes).toContain('session');
      if (entry.access.kind === 'widget') expect(schemes).toContain('apiKey');
      if (entry.access.kind === 'public') expect(schemes).not.toContain('session');
    }
  });

  it('declares the security schemes it names', async () => {
    const res = await http.get('/api/docs-json').expect(200);
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['apiKey', 'basic', 'session']);
  });
});
