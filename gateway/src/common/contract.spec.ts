import { Body, Controller, INestApplication, Param, UploadedFile } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import {
  access,
  defineRoutes,
  FileResponseSchema,
  NoBodySchema,
  SaveAnnouncementFormSchema,
} from '@irp/proto';
import request from 'supertest';
import { z } from 'zod';
import { GATEWAY_CONFIG } from '../config';
import { Route } from '../routing/route';
import { NOT_JSON } from './contract';
import { HttpErrorFilter } from './http-exception.filter';
import { fileTooLargeMessage, NOT_MULTIPART, sizeText } from './multipart';

const MAX = 1.5 * 1024 * 1024;

const EchoSchema = z.object({
  headline: z.string(),
  priceSensitive: z.boolean(),
  thumbnailPageNum: z.number().nullable(),
  file: z.object({ name: z.string(), size: z.number() }).nullable(),
});

/** Probe entries: @Route hands each one's request and response schemas to Contract. */
const probe = defineRoutes('probe', {
  save: {
    method: 'POST',
    path: '/t/save/{id}',
    access: access.public('a probe'),
    summary: 'A multipart save',
    params: z.object({ id: z.string().min(2, 'id is too short') }),
    body: SaveAnnouncementFormSchema,
    multipart: { file: 'file', maxBytes: 'ANNOUNCEMENT_MAX_PDF_BYTES', description: 'The PDF' },
    response: EchoSchema,
  },
  nobody: {
    method: 'POST',
    path: '/t/nobody',
    access: access.public('a probe'),
    summary: 'Takes no body',
    body: NoBodySchema,
    response: z.object({ ok: z.literal(true) }),
  },
  maybe: {
    method: 'GET',
    path: '/t/maybe/{some}',
    access: access.public('a probe'),
    summary: 'Answers null or an object',
    params: z.object({ some: z.enum(['yes', 'no']) }),
    response: z.object({ a: z.number() }).nullable(),
  },
  file: {
    method: 'GET',
    path: '/t/file',
    access: access.public('a probe'),
    summary: 'Answers a file',
    response: FileResponseSchema,
    produces: { mediaType: 'application/pdf', description: 'A PDF' },
  },
});

@Controller()
class UploadProbeController {
  @Route(probe.save)
  save(
    @Param('id') _id: string,
    @Body() form: z.output<typeof SaveAnnouncementFormSchema>,
    @UploadedFile() file: { originalname: string; buffer: Buffer } | undefined,
  ) {
    return {
      headline: form.headline,
      priceSensitive: form.priceSensitive,
      thumbnailPageNum: form.thumbnailPageNum,
      file: file ? { name: file.originalname, size: file.buffer.length } : null,
    };
  }

  @Route(probe.nobody)
  nobody() {
    return { ok: true as const };
  }

  @Route(probe.maybe)
  maybe(@Param('some') some: string) {
    return some === 'yes' ? { a: 1 } : null;
  }

  @Route(probe.file)
  file() {
    return undefined as never;
  }
}

describe('Contract (through @Route) with a multipart body', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [UploadProbeController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: { ANNOUNCEMENT_MAX_PDF_BYTES: MAX } },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  const save = () => request(app.getHttpServer()).post('/t/save/ab');

  it('reads the text fields and the file, then validates the fields with the body schema', async () => {
    const res = await save()
      .field('headline', 'Half Year Results')
      .field('priceSensitive', 'true')
      .field('thumbnailPageNum', '2')
      .field('ignored', 'x')
      .attach('file', Buffer.from('%PDF-1.7 hello'), {
        filename: 'Résultats.pdf',
        contentType: 'application/pdf',
      });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      headline: 'Half Year Results',
      priceSensitive: true,
      thumbnailPageNum: 2,
      file: { name: 'Résultats.pdf', size: 14 },
    });
  });

  it('takes a form without a file (an edit)', async () => {
    const res = await save().field('headline', 'Edited');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      headline: 'Edited',
      priceSensitive: false,
      thumbnailPageNum: null,
      file: null,
    });
  });

  it('answers 400 naming a bad text field, as for a JSON body', async () => {
    const res = await save().field('headline', 'x').field('thumbnailPageNum', 'zero');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'thumbnailPageNum: must be a page number from 1',
      errorMessage: 'thumbnailPageNum: must be a page number from 1',
    });
  });

  it('accepts a file of exactly the limit and refuses a bigger one with 413, and keeps serving', async () => {
    const exact = await save().field('headline', 'x').attach('file', Buffer.alloc(MAX, 1), 'big.pdf');
    expect(exact.status).toBe(200);
    expect(exact.body.file.size).toBe(MAX);
    const over = await save()
      .field('headline', 'x')
      .attach('file', Buffer.alloc(MAX + 1, 1), 'big.pdf');
    expect(over.status).toBe(413);
    expect(over.body.errorMessage).toBe('The file is larger than 1.5 MB');
    expect((await save().field('headline', 'after')).status).toBe(200);
  });

  it('refuses a second file or a file under another name with 400', async () => {
    const two = await save()
      .attach('file', Buffer.from('a'), 'a.pdf')
      .attach('file', Buffer.from('b'), 'b.pdf');
    expect(two.status).toBe(400);
    const other = await save().attach('document', Buffer.from('a'), 'a.pdf');
    expect(other.status).toBe(400);
    expect(other.body.errorMessage).toMatch(/document/);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const res = await save().send({ headline: 'JSON' });
    expect(res.status).toBe(415);
    expect(res.body.errorMessage).toBe(NOT_MULTIPART);
  });

  it('validates path params before the handler runs', async () => {
    const res = await request(app.getHttpServer()).post('/t/save/a').field('headline', 'x');
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toBe('id is too short');
  });

  it('documents the form as multipart/form-data with the file as binary, and a file answer by its type', () => {
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    const saveOp = doc.paths['/t/save/{id}'].post!;
    const body = saveOp.requestBody as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    expect(Object.keys(body.content)).toEqual(['multipart/form-data']);
    const properties = body.content['multipart/form-data'].schema.properties;
    expect(properties.file).toEqual({ type: 'string', format: 'binary', description: 'The PDF' });
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['headline', 'date', 'priceSensitive', 'sendGuid']),
    );
    expect(Object.keys(saveOp.responses['200'] as object)).toContain('content');

    const nobody = doc.paths['/t/nobody'].post!.requestBody as {
      content: Record<string, { schema: object }>;
    };
    expect(nobody.content['application/json'].schema).toMatchObject({ type: 'object' });

    const fileOk = doc.paths['/t/file'].get!.responses['200'] as {
      content: Record<string, { schema: object }>;
    };
    expect(fileOk.content).toEqual({ 'application/pdf': { schema: { type: 'string', format: 'binary' } } });
    const fileError = doc.paths['/t/file'].get!.responses.default as { content: Record<string, object> };
    expect(Object.keys(fileError.content)).toEqual(['application/json']);
  });
});

describe('Contract (through @Route) with a nullable answer', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [UploadProbeController],
      providers: [{ provide: GATEWAY_CONFIG, useValue: { ANNOUNCEMENT_MAX_PDF_BYTES: MAX } }],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  it('answers the JSON null, not an empty body, and other values as they are', async () => {
    const none = await request(app.getHttpServer()).get('/t/maybe/no');
    expect(none.status).toBe(200);
    expect(none.headers['content-type']).toMatch(/^application\/json/);
    expect(none.text).toBe('null');
    const some = await request(app.getHttpServer()).get('/t/maybe/yes');
    expect(some.body).toEqual({ a: 1 });
  });
});

describe('Contract (through @Route): the input of a handler that reads none of it', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [UploadProbeController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: { ANNOUNCEMENT_MAX_PDF_BYTES: MAX } },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  const nobody = () => request(app.getHttpServer()).post('/t/nobody');

  it('takes no body, an empty one or {}', async () => {
    expect((await nobody()).status).toBe(200);
    expect((await nobody().set('Content-Type', 'application/json').send('')).status).toBe(200);
    expect((await nobody().send({})).status).toBe(200);
  });

  it('validates the body with the schema though the handler takes no @Body(): an array, an extra field', async () => {
    const array = await nobody().send([{}]);
    expect({ status: array.status, message: array.body.errorMessage }).toEqual({
      status: 400,
      message: 'Expected object, received array',
    });
    const extra = await nobody().send({ run: true });
    expect({ status: extra.status, message: extra.body.errorMessage }).toEqual({
      status: 400,
      message: "Unrecognized key(s) in object: 'run'",
    });
  });

  it('refuses a body of another type than JSON with 415, rather than as no body', async () => {
    const text = await nobody().set('Content-Type', 'text/plain').send('{}');
    expect({ status: text.status, message: text.body.errorMessage }).toEqual({
      status: 415,
      message: NOT_JSON,
    });
  });

  it('refuses a NUL in a path parameter, a query value or a form field, naming it', async () => {
    const param = await request(app.getHttpServer()).get('/t/maybe/yes%00');
    expect({ status: param.status, message: param.body.errorMessage }).toEqual({
      status: 400,
      message: 'some: must not contain a NUL character',
    });
    const query = await request(app.getHttpServer()).post('/t/nobody?x=a%00').send({});
    expect({ status: query.status, message: query.body.errorMessage }).toEqual({
      status: 400,
      message: 'x: must not contain a NUL character',
    });
    const field = await request(app.getHttpServer()).post('/t/save/ab').field('headline', 'a\u0000b');
    expect({ status: field.status, message: field.body.errorMessage }).toEqual({
      status: 400,
      message: 'headline: must not contain a NUL character',
    });
  });
});

describe('fileTooLargeMessage', () => {
  it('says the limit as people read it', () => {
    expect(fileTooLargeMessage(20 * 1024 * 1024)).toBe('The file is larger than 20 MB');
    expect(sizeText(1024 * 1024)).toBe('1 MB');
    expect(sizeText(512 * 1024)).toBe('512 KB');
  });
});
