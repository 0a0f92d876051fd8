import { fillPath, RouteEntry } from '@irp/proto';
import fc from 'fast-check';
import { z } from 'zod';
import { SampleRequest } from './route-samples';

/**
 * The fuzz suite's requests (backend/fuzz.cases.ts), made from a route's table entry and its valid sample
 * (route-samples.ts): each case breaks one thing of the sample, so that what the gateway must refuse is
 * known. Pure: no I/O, so a case list is the same for the same seed.
 */

/** A request as sent on the wire: the path and query already encoded, the body as bytes. */
export interface RawRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Without the '?'. */
  query: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface FuzzCase {
  what: string;
  request: RawRequest;
  /**
   * `invalid`: invalid by construction, so it must be a 4xx naming the problem and change no row.
   * `odd`: valid but odd input (unicode in a free-text field): a 2xx or a clean 4xx, never a 5xx; a 2xx
   * that answers with the field answers it as sent.
   */
  kind: 'invalid' | 'odd';
  /** What the errorMessage must contain (a field's name, or words naming the problem). */
  names?: string | RegExp;
  /** For an `odd` case: the field (top-level body key) and the value sent. */
  echo?: { field: string; value: string };
}

type Kind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
const KINDS: readonly Kind[] = ['string', 'number', 'boolean', 'null', 'array', 'object'];

/** The JSON kinds a schema accepts at its top, or 'any' where it coerces or accepts anything. */
function kindsOf(schema: z.ZodTypeAny): Set<Kind> | 'any' {
  const def = schema._def as { typeName?: string; coerce?: boolean } & Record<string, unknown>;
  const inner = (s: unknown) => kindsOf(s as z.ZodTypeAny);
  const union = (...sets: Array<Set<Kind> | 'any'>): Set<Kind> | 'any' =>
    sets.includes('any') ? 'any' : new Set(sets.flatMap((s) => [...(s as Set<Kind>)]));
  switch (def.typeName) {
    case 'ZodString':
      return def.coerce ? 'any' : new Set(['string']);
    case 'ZodNumber':
    case 'ZodBigInt':
      return def.coerce ? 'any' : new Set(['number']);
    case 'ZodBoolean':
      return def.coerce ? 'any' : new Set(['boolean']);
    case 'ZodLiteral': {
      const value = def.value;
      return new Set([value === null ? 'null' : (typeof value as Kind)]);
    }
    case 'ZodEnum':
      return new Set(['string']);
    case 'ZodNativeEnum':
      return new Set(['string', 'number']);
    case 'ZodNull':
      return new Set(['null']);
    case 'ZodUndefined':
    case 'ZodNever':
      return new Set();
    case 'ZodArray':
    case 'ZodTuple':
    case 'ZodSet':
      return new Set(['array']);
    case 'ZodObject':
    case 'ZodRecord':
    case 'ZodMap':
      return new Set(['object']);
    case 'ZodOptional':
    case 'ZodDefault':
    case 'ZodBranded':
    case 'ZodReadonly':
      return inner(def.innerType ?? def.type);
    case 'ZodNullable':
      return union(inner(def.innerType), new Set(['null']));
    case 'ZodEffects':
      return (def.effect as { type: string }).type === 'preprocess' ? 'any' : inner(def.schema);
    case 'ZodPipeline':
      return inner(def.in);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return union(...(def.options as z.ZodTypeAny[]).map((o) => kindsOf(o)));
    default:
      return 'any';
  }
}

/** The object schema under a body's effects and pipes (its fields), or undefined. */
function objectShapeOf(schema: z.ZodTypeAny | undefined): z.AnyZodObject | undefined {
  let s: z.ZodTypeAny | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const def = s._def as { typeName?: string } & Record<string, unknown>;
    if (def.typeName === 'ZodObject') return s as z.AnyZodObject;
    if (def.typeName === 'ZodEffects') s = def.schema as z.ZodTypeAny;
    else if (def.typeName === 'ZodPipeline') s = def.out as z.ZodTypeAny;
    else if (def.typeName === 'ZodOptional' || def.typeName === 'ZodDefault')
      s = def.innerType as z.ZodTypeAny;
    else return undefined;
  }
  return undefined;
}

/** Whether a body schema refuses a key it does not name, tried on a valid body of the route. */
const refusesExtraKeys = (schema: z.ZodTypeAny, valid: object): boolean =>
  schema.safeParse(valid).success && !schema.safeParse({ ...valid, [EXTRA_FIELD]: 1 }).success;

/** The field the extra-field cases add. */
const EXTRA_FIELD = 'fuzzExtraField';

/** Arbitrary JSON values of the kinds given. */
function valuesOfKinds(kinds: readonly Kind[]): fc.Arbitrary<unknown> {
  const of: Record<Kind, fc.Arbitrary<unknown>> = {
    string: fc.string({ unit: 'binary', maxLength: 12 }),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
    object: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  };
  return fc.oneof(...kinds.map((k) => of[k]));
}

/** Values of the kinds a field's schema does not accept (none when it accepts anything). */
function wrongKindValues(field: z.ZodTypeAny): fc.Arbitrary<unknown> | undefined {
  const accepted = kindsOf(field);
  if (accepted === 'any') return undefined;
  const wrong = KINDS.filter((k) => !accepted.has(k));
  return wrong.length ? valuesOfKinds(wrong) : undefined;
}

/** A seed per route and purpose, from the run's seed: a route's cases do not depend on the others'. */
function seedOf(runSeed: number, ...parts: string[]): number {
  let h = runSeed | 0;
  for (const ch of parts.join('/')) h = (Math.imul(h ^ ch.charCodeAt(0), 0x01000193) + 0x9e3779b9) | 0;
  return h;
}

/** Up to `count` values of `arb` (drawn with `seed`) that `refused` holds for. */
function drawRefused<T>(
  arb: fc.Arbitrary<T>,
  seed: number,
  count: number,
  refused: (value: T) => boolean,
): T[] {
  const out: T[] = [];
  for (const value of fc.sample(arb, { seed, numRuns: 40 })) {
    if (out.length >= count) break;
    if (refused(value)) out.push(value);
  }
  return out;
}

// ----------------------------------------------------------------------------------------- the wire

const JSON_TYPE = 'application/json';

/** The path and query of a sample (the path's parameters URI-encoded). */
const pathOf = (entry: RouteEntry, req: SampleRequest): string => fillPath(entry.path, req.params ?? {});
const queryOf = (query: Record<string, string> | undefined) => new URLSearchParams(query ?? {}).toString();

interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body of text fields and files, with the given boundary. */
function multipartBody(boundary: string, fields: Record<string, string>, files: FilePart[] = []): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const multipartType = (boundary: string) => `multipart/form-data; boundary=${boundary}`;

// ------------------------------------------------------------------------------------------ the cases

export interface CaseOptions {
  /** The run's seed (FUZZ_SEED). */
  seed: number;
  /** The gateway's JSON_BODY_MAX_BYTES and ANNOUNCEMENT_MAX_PDF_BYTES. */
  jsonMaxBytes: number;
  pdfMaxBytes: number;
}

const MiB = 1024 * 1024;
/** Odd text is stored: a route's first two text fields of its sample get it, not every one. */
const ODD_FIELDS_PER_ROUTE = 2;
/** Valid unicode no form would send: an RTL override, an emoji, a combining accent, a zero-width space. */
export const ODD_TEXT = ' \u202eevil\u202c \u{1F600} e\u0301\u200b';
/** A path segment as an attacker writes it (sent as is: the encoded forms are the point). */
const PATH_ATTACKS: ReadonlyArray<[string, string]> = [
  ['a dot-dot segment', '..'],
  ['an encoded traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['an encoded-dots traversal', '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
  ['a backslash traversal', '..%5c..%5cwindows%5cwin.ini'],
  ['an encoded slash', 'BHP%2FASX'],
  ['a NUL byte', 'BHP%00.pdf'],
  ['a lone surrogate (invalid UTF-8)', '%ED%A0%80'],
  ['a bad percent escape', '%E0%A4%A'],
  ['an RTL override and an emoji', '%E2%80%AEfdp.exe%F0%9F%98%80'],
  ['2000 characters', 'A'.repeat(2000)],
];
/** Query values as an attacker writes them (URL-encoded by URLSearchParams). */
const TEXT_ATTACKS: ReadonlyArray<[string, string]> = [
  ['a traversal', '../../../etc/passwd'],
  ['a backslash traversal', '..\\..\\windows\\win.ini'],
  ['a NUL byte', 'BHP\u0000:ASX'],
  ['4000 characters', 'x'.repeat(4000)],
];

const required = (schema: z.ZodTypeAny, without: object) => !schema.safeParse(without).success;
const omit = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const acceptsText = (field: z.ZodTypeAny) => {
  const kinds = kindsOf(field);
  return kinds === 'any' || kinds.has('string');
};
/** A string field's `max` length, if it has one. */
function maxLengthOf(field: z.ZodTypeAny): number | undefined {
  let s: z.ZodTypeAny | undefined = field;
  for (let i = 0; s && i < 10; i++) {
    const def = s._def as { typeName?: string; checks?: Array<{ kind: string; value: number }> } & Record<
      string,
      unknown
    >;
    if (def.typeName === 'ZodString') return def.checks?.find((c) => c.kind === 'max')?.value;
    s = (def.innerType ?? def.schema ?? def.in) as z.ZodTypeAny | undefined;
  }
  return undefined;
}
const show = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};
/** n levels of arrays or objects around a string, as JSON text (built as text: no recursion). */
const deepJson = (n: number, kind: 'array' | 'object') =>
  kind === 'array' ? `${'['.repeat(n)}"x"${']'.repeat(n)}` : `${'{"a":'.repeat(n)}"x"${'}'.repeat(n)}`;

/** The cases of a route's path parameters: attacks and random text in each, the rest of the sample valid. */
function paramCases(
  entry: RouteEntry,
  base: SampleRequest,
  send: (path: string) => RawRequest,
  o: CaseOptions,
) {
  const cases: FuzzCase[] = [];
  for (const name of Object.keys(entry.params?.shape ?? {})) {
    const pathWith = (raw: string) =>
      entry.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, p: string) =>
        p === name ? raw : encodeURIComponent(String(base.params?.[p] ?? '')),
      );
    for (const [what, raw] of PATH_ATTACKS)
      cases.push({ what: `param ${name}: ${what}`, kind: 'invalid', request: send(pathWith(raw)) });
    const random = fc.sample(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }), {
      seed: seedOf(o.seed, entry.id, 'param', name),
      numRuns: 1,
    });
    for (const value of random)
      cases.push({
        what: `param ${name}: random ${show(value)}`,
        kind: 'invalid',
        request: send(pathWith(encodeURIComponent(value))),
      });
  }
  return cases;
}

/** The cases of a route's query: each key missing, repeated, refused values, attacks; the rest valid. */
function queryCases(
  entry: RouteEntry,
  base: SampleRequest,
  send: (query: string) => RawRequest,
  o: CaseOptions,
): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const valid: Record<string, string> = { ...base.query };
  const keys = Object.keys(objectShapeOf(entry.query)?.shape ?? {});
  if (entry.access.kind === 'widget') keys.push('apiKey');
  const schema = entry.query ?? z.object({});
  const refusedWith = (q: Record<string, unknown>) => !schema.safeParse(q).success;
  for (const key of keys) {
    const isKey = key === 'apiKey' && entry.access.kind === 'widget';
    const names = isKey ? /API key/ : key;
    if (key in valid && (isKey || required(schema, omit(valid, key))))
      cases.push({
        what: `query ${key}: missing`,
        kind: 'invalid',
        names,
        request: send(queryOf(omit(valid, key) as Record<string, string>)),
      });
    const twice = new URLSearchParams(valid);
    twice.append(key, valid[key] ?? 'x');
    if (key in valid && (isKey || refusedWith({ ...valid, [key]: [valid[key], valid[key]] })))
      cases.push({
        what: `query ${key}: given twice`,
        kind: 'invalid',
        names,
        request: send(twice.toString()),
      });
    const random = drawRefused(
      fc.string({ unit: 'grapheme', maxLength: 24 }),
      seedOf(o.seed, entry.id, 'query', key),
      1,
      (v) => isKey || refusedWith({ ...valid, [key]: v }),
    );
    for (const v of random)
      cases.push({
        what: `query ${key}: ${show(v)}`,
        kind: 'invalid',
        names,
        request: send(queryOf({ ...valid, [key]: v })),
      });
    for (const [what, v] of TEXT_ATTACKS) {
      // A value the schema lets through (a search text, a flag whose presence is what counts) is valid:
      // odd, answered 2xx or a clean 4xx. A NUL is refused wherever it is.
      const refused = isKey || refusedWith({ ...valid, [key]: v }) || v.includes('\u0000');
      cases.push({
        what: `query ${key}: ${what}`,
        kind: refused ? 'invalid' : 'odd',
        ...(refused ? { names: v.includes('\u0000') && !isKey ? key : names } : {}),
        request: send(queryOf({ ...valid, [key]: v })),
      });
    }
  }
  return cases;
}

/** The cases of a JSON body: broken JSON, wrong content types, then each field broken in turn. */
function jsonBodyCases(
  entry: RouteEntry,
  base: SampleRequest,
  send: (body: string | Buffer, contentType: string) => RawRequest,
  o: CaseOptions,
): FuzzCase[] {
  const schema = entry.body!;
  const valid = (base.body ?? {}) as Record<string, unknown>;
  const json = (body: unknown) => send(JSON.stringify(body), JSON_TYPE);
  const firstKey = Object.keys(objectShapeOf(schema)?.shape ?? {})[0] ?? 'field';
  const cases: FuzzCase[] = [
    {
      what: 'body: invalid JSON',
      kind: 'invalid',
      names: /JSON/,
      request: send(`{"${firstKey}": `, JSON_TYPE),
    },
    {
      what: 'body: JSON and then garbage',
      kind: 'invalid',
      names: /JSON/,
      request: send('{} trailing', JSON_TYPE),
    },
    { what: 'body: a JSON string', kind: 'invalid', names: /JSON/, request: send('"text"', JSON_TYPE) },
    { what: 'body: a JSON number', kind: 'invalid', names: /JSON/, request: send('42', JSON_TYPE) },
    { what: 'body: JSON null', kind: 'invalid', names: /JSON/, request: send('null', JSON_TYPE) },
    { what: 'body: a JSON array', kind: 'invalid', names: /object/, request: json([valid]) },
    {
      what: 'body: JSON sent as text/plain',
      kind: 'invalid',
      names: /JSON/,
      request: send(JSON.stringify(valid), 'text/plain'),
    },
    { what: 'body: XML', kind: 'invalid', names: /JSON/, request: send('<a>1</a>', 'application/xml') },
    {
      what: 'body: 1 MB string',
      kind: 'invalid',
      names: /larger than/,
      request: json({ ...valid, [firstKey]: 'x'.repeat(MiB) }),
    },
  ];
  for (const kind of ['array', 'object'] as const) {
    const text = JSON.stringify({ ...valid, [firstKey]: '__DEEP__' }).replace(
      '"__DEEP__"',
      deepJson(10_000, kind),
    );
    cases.push({
      what: `body ${firstKey}: 10,000 levels of ${kind}s`,
      kind: 'invalid',
      request: send(text, JSON_TYPE),
    });
  }
  if (refusesExtraKeys(schema, valid))
    cases.push({
      what: 'body: an extra field',
      kind: 'invalid',
      names: EXTRA_FIELD,
      request: json({ ...valid, [EXTRA_FIELD]: 'x' }),
    });
  const refusedWith = (body: unknown) => !schema.safeParse(body).success;
  let oddFields = 0;
  for (const [key, field] of Object.entries(objectShapeOf(schema)?.shape ?? {}) as Array<
    [string, z.ZodTypeAny]
  >) {
    if (key in valid && required(schema, omit(valid, key)))
      cases.push({
        what: `body ${key}: missing`,
        kind: 'invalid',
        names: key,
        request: json(omit(valid, key)),
      });
    const wrong = wrongKindValues(field);
    const values = [
      ...(wrong
        ? drawRefused(wrong, seedOf(o.seed, entry.id, 'kind', key), 1, (v) =>
            refusedWith({ ...valid, [key]: v }),
          )
        : []),
      ...(acceptsText(field)
        ? drawRefused(
            fc.string({ unit: 'grapheme', maxLength: 24 }),
            seedOf(o.seed, entry.id, 'text', key),
            1,
            (v) => refusedWith({ ...valid, [key]: v }),
          )
        : []),
    ];
    for (const v of values)
      cases.push({
        what: `body ${key}: ${show(v)}`,
        kind: 'invalid',
        names: key,
        request: json({ ...valid, [key]: v }),
      });
    if (!acceptsText(field)) continue;
    const max = maxLengthOf(field);
    if (
      max !== undefined &&
      max < o.jsonMaxBytes / 2 &&
      refusedWith({ ...valid, [key]: 'x'.repeat(max + 1) })
    )
      cases.push({
        what: `body ${key}: ${max + 1} characters`,
        kind: 'invalid',
        names: key,
        request: json({ ...valid, [key]: 'x'.repeat(max + 1) }),
      });
    const text = typeof valid[key] === 'string' ? (valid[key] as string) : 'a';
    cases.push({
      what: `body ${key}: a NUL character`,
      kind: 'invalid',
      names: key,
      request: json({ ...valid, [key]: `${text}\u0000` }),
    });
    // JSON.stringify writes a lone surrogate as the escape "\ud800": the JSON is valid, the text is not.
    cases.push({
      what: `body ${key}: a lone surrogate`,
      kind: 'invalid',
      names: key,
      request: json({ ...valid, [key]: `${text}\ud800` }),
    });
    if (typeof valid[key] === 'string' && oddFields++ < ODD_FIELDS_PER_ROUTE)
      cases.push({
        what: `body ${key}: RTL override, emoji, combining mark`,
        kind: 'odd',
        echo: { field: key, value: `${text}${ODD_TEXT}` },
        request: json({ ...valid, [key]: `${text}${ODD_TEXT}` }),
      });
  }
  const whole = drawRefused(
    fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
    seedOf(o.seed, entry.id, 'whole'),
    2,
    refusedWith,
  );
  for (const body of whole)
    cases.push({ what: `body: random ${show(body)}`, kind: 'invalid', request: json(body) });
  return cases;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** The cases of a multipart body: broken multipart, wrong and oversized files, then each text field broken. */
function multipartCases(
  entry: RouteEntry,
  base: SampleRequest,
  send: (body: string | Buffer, contentType: string) => RawRequest,
  o: CaseOptions,
): FuzzCase[] {
  const spec = entry.multipart!;
  const fields = base.form?.fields ?? {};
  const file = base.form?.file;
  const boundary = `fuzz${(o.seed >>> 0).toString(16)}`;
  const validFile: FilePart[] = file
    ? [{ field: file.field, filename: file.filename, contentType: 'application/pdf', data: file.data }]
    : [];
  const form = (f: Record<string, string>, files: FilePart[] = validFile) =>
    send(multipartBody(boundary, f, files), multipartType(boundary));
  const whole = multipartBody(boundary, fields, validFile);
  const cases: FuzzCase[] = [
    {
      what: 'multipart: sent as JSON',
      kind: 'invalid',
      names: /multipart/,
      request: send(JSON.stringify(fields), JSON_TYPE),
    },
    {
      what: 'multipart: no boundary in the content type',
      kind: 'invalid',
      names: /[Bb]oundary/,
      request: send(whole, 'multipart/form-data'),
    },
    {
      what: 'multipart: another boundary than the body uses',
      kind: 'invalid',
      names: /[Mm]ultipart|form/,
      request: send(whole, multipartType('someOtherBoundary')),
    },
    {
      what: 'multipart: truncated body',
      kind: 'invalid',
      names: /[Mm]ultipart|form|end/,
      request: send(whole.subarray(0, Math.floor(whole.length / 2)), multipartType(boundary)),
    },
    {
      what: 'multipart: not multipart at all',
      kind: 'invalid',
      names: /[Mm]ultipart|form|end/,
      request: send('this is not a form', multipartType(boundary)),
    },
  ];
  if (spec.file) {
    const named = (data: Buffer, filename: string, contentType: string, field = spec.file!): FilePart[] => [
      { field, filename, contentType, data },
    ];
    cases.push(
      { what: 'multipart: no file', kind: 'invalid', names: /file|PDF/i, request: form(fields, []) },
      {
        what: 'multipart: a text file named .pdf',
        kind: 'invalid',
        names: /PDF/,
        request: form(fields, named(Buffer.from('hello, not a PDF'), 'a.pdf', 'application/pdf')),
      },
      {
        what: 'multipart: a PNG',
        kind: 'invalid',
        names: /PDF/,
        request: form(fields, named(PNG, 'a.png', 'image/png')),
      },
      {
        what: 'multipart: an empty file',
        kind: 'invalid',
        names: /PDF|empty/i,
        request: form(fields, named(Buffer.alloc(0), 'a.pdf', 'application/pdf')),
      },
      {
        what: 'multipart: a non-PDF named with a traversal',
        kind: 'invalid',
        names: /PDF/,
        request: form(
          fields,
          named(Buffer.from('<?php echo 1;'), '../../../etc/cron.d/x.pdf', 'application/pdf'),
        ),
      },
      {
        what: `multipart: a file over the cap (${o.pdfMaxBytes + 1} bytes)`,
        kind: 'invalid',
        names: /larger than/,
        request: form(
          fields,
          named(
            Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(o.pdfMaxBytes)]),
            'big.pdf',
            'application/pdf',
          ),
        ),
      },
      {
        what: 'multipart: the file in another field',
        kind: 'invalid',
        names: /document/,
        request: form(fields, named(file!.data, 'a.pdf', 'application/pdf', 'document')),
      },
      {
        what: 'multipart: two files',
        kind: 'invalid',
        names: /file/i,
        request: form(fields, [...validFile, ...validFile]),
      },
    );
  } else {
    cases.push({
      what: 'multipart: a file in a form of text fields',
      kind: 'invalid',
      names: /file/i,
      request: form(fields, [
        { field: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-') },
      ]),
    });
  }
  const schema = entry.body ?? z.object({});
  const refusedWith = (body: unknown) => !schema.safeParse(body).success;
  if (refusesExtraKeys(schema, fields))
    cases.push({
      what: 'multipart: an extra field',
      kind: 'invalid',
      names: EXTRA_FIELD,
      request: form({ ...fields, [EXTRA_FIELD]: 'x' }),
    });
  let oddFields = 0;
  for (const key of Object.keys(objectShapeOf(schema)?.shape ?? {})) {
    if (key in fields && required(schema, omit(fields, key)))
      cases.push({
        what: `field ${key}: missing`,
        kind: 'invalid',
        names: key,
        request: form(omit(fields, key) as Record<string, string>),
      });
    for (const v of drawRefused(
      fc.string({ unit: 'grapheme', maxLength: 24 }),
      seedOf(o.seed, entry.id, 'field', key),
      1,
      (v) => refusedWith({ ...fields, [key]: v }),
    ))
      cases.push({
        what: `field ${key}: ${show(v)}`,
        kind: 'invalid',
        names: key,
        request: form({ ...fields, [key]: v }),
      });
    cases.push(
      {
        what: `field ${key}: 70,000 characters`,
        kind: 'invalid',
        names: key,
        request: form({ ...fields, [key]: 'x'.repeat(70_000) }),
      },
      {
        what: `field ${key}: a NUL character`,
        kind: 'invalid',
        names: key,
        request: form({ ...fields, [key]: `${fields[key] ?? 'a'}\u0000` }),
      },
    );
    if (typeof fields[key] === 'string' && fields[key] !== '' && oddFields++ < ODD_FIELDS_PER_ROUTE)
      cases.push({
        what: `field ${key}: RTL override, emoji, combining mark`,
        kind: 'odd',
        echo: { field: key, value: `${fields[key]}${ODD_TEXT}` },
        request: form({ ...fields, [key]: `${fields[key]}${ODD_TEXT}` }),
      });
  }
  return cases;
}

const basicOf = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

/** Sign-in's input is its Authorization header. */
function signInCases(send: (authorization: string) => RawRequest): FuzzCase[] {
  const attacks: Array<[string, string]> = [
    ['no credentials', 'Basic'],
    ['not base64', 'Basic !!!%%%'],
    ['no colon', basicOf('adminAdmin!2026')],
    ['another scheme', 'Bearer abc.def.ghi'],
    ['a NUL in the username', basicOf('ad\u0000min:Admin!2026')],
    ['a traversal username', basicOf('../../etc/passwd:x')],
    ['an RTL-override username', basicOf('\u202enimda:Admin!2026')],
    ['an 8,000-character username', basicOf(`${'u'.repeat(8000)}:x`)],
    ['a wrong password', basicOf('admin:not-the-password')],
  ];
  return attacks.map(([what, authorization]) => ({
    what: `Authorization: ${what}`,
    kind: 'invalid' as const,
    request: send(authorization),
  }));
}

/**
 * A route's valid sample as it goes on the wire (its path parameters encoded, its JSON or multipart body),
 * with `over` put on top: the request every case breaks one thing of, and the fuzz's controls as they are.
 */
export function wireRequestOf(
  entry: RouteEntry,
  base: SampleRequest,
  seed: number,
  over: Partial<RawRequest> = {},
): RawRequest {
  const validBody = (): Pick<RawRequest, 'body' | 'headers'> => {
    if (base.form) {
      const boundary = `fuzz${(seed >>> 0).toString(16)}`;
      const files: FilePart[] = base.form.file
        ? [
            {
              field: base.form.file.field,
              filename: base.form.file.filename,
              contentType: 'application/pdf',
              data: base.form.file.data,
            },
          ]
        : [];
      return {
        body: multipartBody(boundary, base.form.fields, files),
        headers: { 'Content-Type': multipartType(boundary) },
      };
    }
    if (entry.method === 'GET' || base.body === undefined) return { headers: {} };
    return { body: JSON.stringify(base.body), headers: { 'Content-Type': JSON_TYPE } };
  };
  const b = validBody();
  return {
    method: entry.method,
    path: pathOf(entry, base),
    query: queryOf(base.query),
    ...b,
    ...over,
    headers: { ...base.headers, ...b.headers, ...over.headers },
  };
}

/**
 * Every case of a route, from its valid sample: its path parameters, query, body (JSON or multipart) and,
 * for sign-in, its Authorization header. A route that takes no input has none.
 */
export function casesOf(entry: RouteEntry, base: SampleRequest, o: CaseOptions): FuzzCase[] {
  const request = (over: Partial<RawRequest>): RawRequest => wireRequestOf(entry, base, o.seed, over);
  const cases: FuzzCase[] = [];
  if (entry.params) cases.push(...paramCases(entry, base, (p) => request({ path: p }), o));
  if (entry.query || entry.access.kind === 'widget')
    cases.push(...queryCases(entry, base, (q) => request({ query: q }), o));
  const withBody = (body: string | Buffer, contentType: string) =>
    request({ body, headers: { 'Content-Type': contentType } });
  if (entry.multipart) cases.push(...multipartCases(entry, base, withBody, o));
  else if (entry.body && entry.method !== 'GET') cases.push(...jsonBodyCases(entry, base, withBody, o));
  if (entry.id === 'users.login')
    cases.push(...signInCases((authorization) => request({ headers: { Authorization: authorization } })));
  return cases;
}
