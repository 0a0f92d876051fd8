import { ApiErrorSchema, formatZodIssues, SaveErrorSchema } from '@irp/proto';
import {
  applyDecorators,
  ArgumentMetadata,
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  mixin,
  NestInterceptor,
  PipeTransform,
  Type,
  UnsupportedMediaTypeException,
  UseFilters,
  UseInterceptors,
  UsePipes,
} from '@nestjs/common';
import type { Request } from 'express';
import { ApiBody, ApiConsumes, ApiDefaultResponse, ApiOkResponse, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { map, Observable } from 'rxjs';
import { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { SaveErrorFilter } from './http-exception.filter';
import { MultipartBody, MultipartInterceptor } from './multipart';
import { refuseMalformedText } from './well-formed-text';
import { ZodValidationPipe } from './zod-validation.pipe';

/** Serializes as the JSON `null` (Express's res.json calls toJSON). */
const JSON_NULL = Object.freeze({ toJSON: (): null => null });

/**
 * A route whose answer may be null answers the JSON `null`: Nest sends an empty body for a null result,
 * which is neither the documented answer nor JSON.
 */
@Injectable()
class NullAsJsonInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value: unknown) => (value === null ? JSON_NULL : value)));
  }
}

export const NOT_JSON = 'This route takes a JSON body (Content-Type: application/json)';
/** What the gateway's parsers read (body-limits.ts). */
const JSON_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

/**
 * Checks a route's input whatever its handler reads, before the handler's pipes: a handler that takes no
 * @Body() (a run, a refresh, a confirmation link) never had its body validated, so a JSON array, a
 * 10,000-level document or any field went through as if nothing had been sent. In order:
 * - path parameters and query hold well-formed text only (no NUL, no lone surrogate);
 * - a JSON-body route refuses a body of another type with 415 (no parser reads it, so the route would see
 *   none); an empty body (Content-Length: 0, a browser's POST without one) passes, and so does a
 *   form-encoded one (the parsers read it), or the types the route's entry lists (`bodyTypes`);
 * - its body (none sent: `{}`) is validated with the route's schema, a 400 naming each bad field.
 * A multipart body is checked once multer has read it (MultipartInterceptor).
 */
function RequestInputInterceptor(contract: RouteContract<z.ZodTypeAny>): Type<NestInterceptor> {
  const jsonBody = contract.body && !contract.multipart ? contract.body : undefined;
  const bodyTypes = contract.bodyTypes ?? JSON_BODY_TYPES;
  @Injectable()
  class RequestInput implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const req = context.switchToHttp().getRequest<Request>();
      refuseMalformedText(req.params);
      refuseMalformedText(req.query);
      if (jsonBody) {
        const length = Number(req.headers['content-length'] ?? Number.NaN);
        const hasBody = req.headers['transfer-encoding'] !== undefined || length > 0;
        if (hasBody && !req.is([...bodyTypes])) throw new UnsupportedMediaTypeException(NOT_JSON);
        const body: unknown = req.body ?? {};
        refuseMalformedText(body);
        const parsed = jsonBody.safeParse(body);
        if (!parsed.success) throw new BadRequestException(formatZodIssues(parsed.error));
      }
      return next.handle();
    }
  }
  return mixin(RequestInput);
}

/**
 * The REST contract of one route, in proto schemas: what it accepts (path params, query, body) and what
 * it answers (a route table entry's schemas; @Route applies `Contract`). It validates the request with
 * them and writes them into the OpenAPI document, so the document at /api/docs cannot drift from what the
 * gateway enforces.
 */
export interface RouteContract<R extends z.ZodTypeAny> {
  /** An object schema: each path parameter is validated on its own by its property's schema. */
  params?: z.AnyZodObject;
  /** The whole query object. */
  query?: z.ZodTypeAny;
  /** The JSON body; with `multipart`, the form's text fields (strings, as the browser sends them). */
  body?: z.ZodTypeAny;
  /** The body is multipart/form-data with one file; `body` then validates the text fields. */
  multipart?: MultipartBody;
  /** The media types a JSON body may come as (default JSON_BODY_TYPES); any other is 415. */
  bodyTypes?: readonly string[];
  /** The 2xx body. The handler must return this type (checked by the compiler). */
  response: R;
  /**
   * The 2xx answer is a file of this media type rather than JSON (`response` is then FileResponseSchema);
   * errors are still the JSON error body.
   */
  produces?: { mediaType: string; description: string };
  /**
   * A save route (spec section 7: "response success, stock, errorMessage"): errors also carry
   * `success: false, stock: null` (SaveErrorFilter), including the guard's 401/403.
   */
  save?: true;
}

type Handler<R extends z.ZodTypeAny> = (...args: never[]) => z.input<R> | Promise<z.input<R>>;

/** JSON Schema of a proto schema, inline (no $refs), as the request sends it or the response carries it. */
export function jsonSchemaOf(schema: z.ZodTypeAny, io: 'input' | 'output'): SchemaObject {
  // zod-to-json-schema types its argument with zod/v3's classes, the same ones 'zod' 3.25 exports; going
  // through its own parameter type keeps the compiler from expanding both.
  const source = schema as unknown as Parameters<typeof zodToJsonSchema>[0];
  return zodToJsonSchema(source, {
    target: 'openApi3',
    $refStrategy: 'none',
    effectStrategy: io === 'input' ? 'input' : 'any',
    pipeStrategy: io,
  }) as SchemaObject;
}

function propertiesOf(schema: z.ZodTypeAny): { name: string; required: boolean; schema: SchemaObject }[] {
  const json = jsonSchemaOf(schema, 'input');
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    required: required.has(name),
    schema: property as SchemaObject,
  }));
}

/** Validates each argument of a route with the part of its contract it came from. */
@Injectable()
export class ContractPipe implements PipeTransform {
  private readonly body?: ZodValidationPipe<z.ZodTypeAny>;
  private readonly query?: ZodValidationPipe<z.ZodTypeAny>;
  private readonly params = new Map<string, ZodValidationPipe<z.ZodTypeAny>>();

  constructor(contract: RouteContract<z.ZodTypeAny>) {
    if (contract.body) this.body = new ZodValidationPipe(contract.body);
    if (contract.query) this.query = new ZodValidationPipe(contract.query);
    for (const [name, schema] of Object.entries(contract.params?.shape ?? {}))
      this.params.set(name, new ZodValidationPipe(schema as z.ZodTypeAny));
  }

  transform(value: unknown, { type, data }: ArgumentMetadata): unknown {
    if (type === 'body' && this.body) return this.body.transform(value);
    if (type === 'query' && this.query && data === undefined) return this.query.transform(value);
    if (type === 'param' && data !== undefined) {
      const param = this.params.get(data);
      if (param) return param.transform(value);
    }
    return value;
  }
}

/** The OpenAPI schema of a multipart body: its text fields plus the file as binary. */
function multipartSchemaOf(multipart: MultipartBody, fields?: z.ZodTypeAny): SchemaObject {
  const text = fields ? jsonSchemaOf(fields, 'input') : { type: 'object' as const, properties: {} };
  return {
    ...text,
    type: 'object',
    properties: {
      ...text.properties,
      ...(multipart.file
        ? { [multipart.file]: { type: 'string', format: 'binary', description: multipart.description } }
        : {}),
    },
  };
}

/**
 * One decorator per route: validates params, query and body with proto schemas (a failure is a 400
 * naming each bad field), documents them and the response in OpenAPI, and makes the compiler check that
 * the handler returns the response schema's type. A multipart route reads its body first (the file held
 * in memory, its size capped), then validates the text fields the same way.
 */
export function Contract<R extends z.ZodTypeAny>(contract: RouteContract<R>) {
  const decorators: MethodDecorator[] = [
    UseInterceptors(RequestInputInterceptor(contract)),
    UsePipes(new ContractPipe(contract)),
    contract.produces
      ? ApiOkResponse({
          description: contract.produces.description,
          content: { [contract.produces.mediaType]: { schema: { type: 'string', format: 'binary' } } },
        })
      : ApiOkResponse({ schema: jsonSchemaOf(contract.response, 'output') }),
    ApiDefaultResponse({
      description: contract.save
        ? 'Any error: the error body with success: false and stock: null'
        : 'Any error: the one error body',
      schema: jsonSchemaOf(contract.save ? SaveErrorSchema : ApiErrorSchema, 'output'),
    }),
  ];
  if (contract.save) decorators.push(UseFilters(SaveErrorFilter));
  if (contract.response.safeParse(null).success) decorators.push(UseInterceptors(NullAsJsonInterceptor));
  if (contract.multipart) {
    decorators.push(
      UseInterceptors(MultipartInterceptor(contract.multipart)),
      ApiConsumes('multipart/form-data'),
      ApiBody({ schema: multipartSchemaOf(contract.multipart, contract.body) }),
    );
  } else if (contract.body) decorators.push(ApiBody({ schema: jsonSchemaOf(contract.body, 'input') }));
  if (contract.query)
    for (const q of propertiesOf(contract.query))
      decorators.push(
        ApiQuery({ name: q.name, required: q.required, schema: q.schema, description: q.schema.description }),
      );
  if (contract.params)
    for (const p of propertiesOf(contract.params))
      decorators.push(
        ApiParam({ name: p.name, required: true, schema: p.schema, description: p.schema.description }),
      );
  const apply = applyDecorators(...decorators);
  return <H extends Handler<R>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): TypedPropertyDescriptor<H> | void => apply(target, key, descriptor);
}
