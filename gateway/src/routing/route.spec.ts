import { access, defineRoutes, GlobalRole, StockRole } from '@irp/proto';
import { Body, Controller, INestApplication, Param } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { z } from 'zod';
import { accessExtension, DOCUMENT_OPTIONS, nestPathOf, Route, SECURITY } from './route';

const probe = defineRoutes('probe', {
  item: {
    method: 'GET',
    path: '/api/probe/{kind}/items/{id}',
    access: access.public('a probe: answers nothing of anyone'),
    summary: 'One item',
    params: z.object({ kind: z.string(), id: z.string() }),
    response: z.object({ kind: z.string(), id: z.string() }),
  },
  change: {
    method: 'POST',
    path: '/api/probe/{combinedTicker}/change',
    access: access.stock([StockRole.ViewConfig], { from: 'param', key: 'combinedTicker' }, [
      GlobalRole.RunReports,
    ]),
    summary: 'Change something of a stock',
    params: z.object({ combinedTicker: z.string() }),
    body: z.object({ name: z.string() }),
    response: z.object({ changed: z.string() }),
  },
  widget: {
    method: 'GET',
    path: '/api/probe/widget',
    access: access.widget(),
    summary: 'The widget probe',
    response: z.object({ ok: z.literal(true) }),
  },
  mine: {
    method: 'GET',
    path: '/api/probe/mine',
    access: access.anySignedIn(),
    summary: "The caller's own",
    response: z.object({ id: z.string(), secret: z.string().optional() }),
    restricted: [{ at: '', rules: [{ fields: ['secret'], globalRoles: [GlobalRole.Admin] }] }],
  },
  created: {
    method: 'POST',
    path: '/api/probe/created',
    access: access.admin(),
    summary: 'Answers 201 because its entry says so',
    response: z.object({ ok: z.literal(true) }),
    status: 201,
  },
});

// No guard in this module: what @Route itself does (mapping, status, validation, docs, restricted fields).
@Controller()
class ProbeController {
  @Route(probe.item)
  item(@Param('kind') kind: string, @Param('id') id: string) {
    return { kind, id };
  }

  @Route(probe.change)
  change(@Param('combinedTicker') combinedTicker: string, @Body() body: { name: string }) {
    return { changed: `${combinedTicker} ${body.name}` };
  }

  @Route(probe.widget)
  widget() {
    return { ok: true as const };
  }

  @Route(probe.mine)
  mine() {
    return { id: 'me', secret: 's' };
  }

  @Route(probe.created)
  created() {
    return { ok: true as const };
  }
}

describe('@Route', () => {
  let app: INestApplication;
  let doc: OpenAPIObject;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [ProbeController] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    doc = SwaggerModule.createDocument(app, new DocumentBuilder().build(), DOCUMENT_OPTIONS);
  });
  afterAll(() => app.close());

  /** An operation of the document with its `x-` extensions readable. */
  const operation = (path: string, method: 'get' | 'post') =>
    doc.paths[path]?.[method] as unknown as Record<string, unknown>;

  it("serves the entry's method and path, its {name} parameters as :name", async () => {
    expect(nestPathOf('/api/stock/{combinedTicker}/notes/{id}')).toBe('/api/stock/:combinedTicker/notes/:id');
    const res = await request(app.getHttpServer()).get('/api/probe/news/items/42');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'news', id: '42' });
    expect((await request(app.getHttpServer()).post('/api/probe/news/items/42')).status).toBe(404);
  });

  it('answers a POST with 200 unless the entry says another status', async () => {
    const res = await request(app.getHttpServer()).post('/api/probe/BHP:ASX/change').send({ name: 'x' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ changed: 'BHP:ASX x' });
    expect((await request(app.getHttpServer()).post('/api/probe/created')).status).toBe(201);
  });

  it("validates the body with the entry's schema", async () => {
    const res = await request(app.getHttpServer()).post('/api/probe/BHP:ASX/change').send({ name: 3 });
    expect(res.status).toBe(400);
  });

  it("strips the entry's restricted fields from the answer for a caller without the role", async () => {
    const res = await request(app.getHttpServer()).get('/api/probe/mine');
    expect(res.body).toEqual({ id: 'me' });
  });

  it('documents the operation under its entry id and group, with the path as the entry writes it', () => {
    const op = doc.paths['/api/probe/{kind}/items/{id}']?.get;
    expect(op?.operationId).toBe('probe.item');
    expect(op?.tags).toEqual(['probe']);
    expect(op?.summary).toBe('One item');
    expect(op?.description).toBe('Access: public: anyone, no sign-in.');
    expect(op?.parameters?.map((p) => ('name' in p ? p.name : ''))).toEqual(
      expect.arrayContaining(['kind', 'id']),
    );
    expect(doc.paths['/api/probe/{combinedTicker}/change']?.post?.operationId).toBe('probe.change');
  });

  it('writes the access rule as x-access, and no security requirement for a public route', () => {
    const op = operation('/api/probe/{kind}/items/{id}', 'get');
    expect(op['x-access']).toEqual({ summary: 'public: anyone, no sign-in', kind: 'public' });
    expect(op.security).toBeUndefined();
  });

  it('writes a signed-in rule with its roles, where the stock comes from, and the session cookie', () => {
    const op = operation('/api/probe/{combinedTicker}/change', 'post');
    expect(op['x-access']).toEqual({
      summary:
        'signed in with the RunReports role, or the ViewConfig permission on the stock named by param combinedTicker (Admin passes)',
      kind: 'signedIn',
      globalRoles: [GlobalRole.RunReports],
      stockRoles: [StockRole.ViewConfig],
      stockFrom: { from: 'param', key: 'combinedTicker' },
      adminPasses: true,
    });
    expect(op['x-access']).toEqual(accessExtension(probe.change.access));
    expect(op.security).toEqual([{ [SECURITY.session]: [] }]);
    const responses = op.responses as Record<string, { description?: string }>;
    expect(responses['401']?.description).toBe('Not signed in');
    expect(responses['403']?.description).toMatch(/^Needs signed in with the RunReports role/);
  });

  it('documents any signed-in user without a 403, and the fields it may strip', () => {
    const op = operation('/api/probe/mine', 'get');
    expect(op['x-access']).toMatchObject({ kind: 'signedIn', globalRoles: [], stockRoles: [] });
    expect(op.security).toEqual([{ [SECURITY.session]: [] }]);
    expect(Object.keys(op.responses as object)).not.toContain('403');
    expect(op['x-restricted-fields']).toEqual(probe.mine.restricted);
  });

  it('gives a widget route the API key security scheme and its two ways of passing the key', () => {
    const op = operation('/api/probe/widget', 'get');
    expect(op['x-access']).toEqual({ summary: "widget: the stock's API key, no sign-in", kind: 'widget' });
    expect(op.security).toEqual([{ [SECURITY.widgetKey]: [] }]);
    const params = (op.parameters as { name: string; in: string }[]).map((p) => `${p.in} ${p.name}`);
    expect(params).toEqual(expect.arrayContaining(['header X-Api-Key', 'query apiKey']));
  });
});
