import { readFileSync } from 'node:fs';
import type { Document, OpenAPIBackend } from 'openapi-backend';
import { protoOperations, ProtoOperationsOptions } from './proto-description';

/**
 * A vendor's published OpenAPI description as a contract our adapters and stand-ins are tested against
 * (ADR 0014): what an adapter sends must be a request of the published operation, what a stand-in answers
 * must be that operation's published reply. The checking is openapi-backend's (ajv inside, formats from
 * ajv-formats), never a walker of our own; this file only chooses what it is given.
 */

/** A request as it left the adapter (a recording proxy's or a stand-in's log). */
export interface RecordedRequest {
  method: string;
  /** The path as sent, under the description's server base path (`/api.xro/2.0/Invoices`), query apart. */
  path: string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, if any. */
  body?: unknown;
}

/** A reply as the vendor (or its stand-in) gave it. */
export interface RecordedResponse {
  status: number;
  /** The parsed JSON body. */
  body?: unknown;
}

/** The verdict on one recorded request: the operation it was checked against and each problem found. */
export interface RequestVerdict {
  operationId: string | null;
  problems: string[];
}

export interface PublishedExample {
  /** Status of a response example; undefined for a request body's. */
  status?: number;
  mediaType: string;
  name?: string;
  value: unknown;
}

export interface VendorContractOptions {
  /** The operations the adapter calls (operationId): only these are compiled, so a large file is cheap. */
  operations: string[];
  /**
   * Objects accept only the properties their schema publishes (JSON Schema leaves them open): so a field
   * renamed in a stand-in's reply, or one the vendor does not take in a request, is a problem rather than
   * silently allowed. An object also accepts the names the operation's own published examples show in its
   * place (what a vendor's schemas leave out, as Xero's envelope `Id`, `Status`...). Default true.
   */
  closed?: boolean;
}

/**
 * The ceiling for a contract spec's set-up (loading and compiling a description, starting the stand-in and
 * making every call): a limit for a loaded machine, never a check of speed. jest's 5 s default was hit by
 * Mailchimp's 3 MB description beside the other lanes of a fresh clone's run.
 */
export const VENDOR_CONTRACT_SETUP_MS = 120_000;

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

export class VendorContract {
  private constructor(
    private readonly backend: OpenAPIBackend,
    private readonly operations: Map<string, Json>,
  ) {}

  /** Loads the description once (YAML or JSON) and compiles the operations named in `options`. */
  static async load(file: string, options: VendorContractOptions): Promise<VendorContract> {
    const { parse } = await import('yaml');
    return VendorContract.of(parse(readFileSync(file, 'utf8')) as Json, options, file);
  }

  /**
   * The RPCs a vendor publishes as protocol buffers (protobufjs's JSON descriptor, `protos.json`), called
   * over HTTP/JSON: each checked as the operation its `google.api.http` option names (`protoOperations`).
   * The operations are named by the RPC's method name (`AutocompletePlaces`).
   */
  static async loadProtos(
    file: string,
    protos: ProtoOperationsOptions,
    options: Omit<VendorContractOptions, 'operations'> = {},
  ): Promise<VendorContract> {
    const document = protoOperations(JSON.parse(readFileSync(file, 'utf8')) as object, protos);
    const operations = protos.rpcs.map((rpc) => rpc.slice(rpc.lastIndexOf('.') + 1));
    return VendorContract.of(document, { ...options, operations }, file);
  }

  private static async of(
    document: Json,
    options: VendorContractOptions,
    name: string,
  ): Promise<VendorContract> {
    // Loaded only here, so the other specs that import the testing kit do not pay for the validator.
    const [{ OpenAPIBackend }, { default: addFormats }] = await Promise.all([
      import('openapi-backend'),
      import('ajv-formats'),
    ]);
    const pruned = pruneTo(document, new Set(options.operations));
    if (options.closed ?? true) closeObjects(pruned);
    const server = ((document.servers as Array<{ url: string }> | undefined) ?? [])[0]?.url ?? '/';
    const backend = new OpenAPIBackend({
      definition: pruned as unknown as Document,
      apiRoot: new URL(server, 'http://localhost').pathname,
      strict: true,
      quick: true,
      coerceTypes: true,
      ajvOpts: { allErrors: true },
      customizeAjv: (ajv) => addFormats(ajv),
    });
    await backend.init();
    const operations = new Map<string, Json>();
    for (const op of backend.getOperations()) operations.set(op.operationId!, op as unknown as Json);
    for (const id of options.operations)
      if (!operations.has(id)) throw new Error(`${name} describes no operation ${id}`);
    return new VendorContract(backend, operations);
  }

  /**
   * Checks a request against `operationId`, or against the operation its method and path match (a
   * request no operation matches is one problem). Each problem names the operation and where it is.
   */
  validateRequest(request: RecordedRequest, operationId?: string): RequestVerdict {
    const req = {
      method: request.method.toLowerCase(),
      path: request.path,
      query: request.query ?? {},
      headers: Object.fromEntries(
        Object.entries(request.headers ?? {}).filter((e): e is [string, string | string[]] => !!e[1]),
      ),
      body: request.body,
    };
    const id = operationId ?? this.backend.matchOperation(req)?.operationId ?? null;
    if (!id)
      return { operationId: null, problems: [`${request.method} ${request.path}: no published operation`] };
    const result = this.backend.validateRequest(req, this.operation(id) as never);
    return { operationId: id, problems: distinct((result.errors ?? []).map((e) => `${id}: ${describe(e)}`)) };
  }

  /**
   * Checks one recorded exchange: its request against `operationId` (or the operation it matches) and its
   * JSON reply, if any, against that operation's published reply for its status.
   */
  checkExchange(
    exchange: { request: RecordedRequest; response: RecordedResponse },
    operationId?: string,
  ): RequestVerdict {
    const verdict = this.validateRequest(exchange.request, operationId);
    const reply =
      exchange.response.body === undefined
        ? []
        : this.validateResponse(verdict.operationId ?? '?', exchange.response);
    return { operationId: verdict.operationId, problems: [...verdict.problems, ...reply] };
  }

  /** Checks a JSON reply against the operation's published response schema for its status. */
  validateResponse(operationId: string, response: RecordedResponse): string[] {
    this.operation(operationId);
    const result = this.backend.validateResponse(response.body, operationId, response.status);
    return distinct((result.errors ?? []).map((e) => `${operationId} ${response.status}: ${describe(e)}`));
  }

  /** The operation's published examples: its request body's, then each response's, in the file's order. */
  examples(operationId: string): { requests: PublishedExample[]; responses: PublishedExample[] } {
    const op = this.operation(operationId);
    const requestBody = (op.requestBody ?? {}) as Json;
    const requests = examplesOf(requestBody.content);
    const responses = Object.entries((op.responses ?? {}) as Record<string, Json>).flatMap(
      ([status, response]) =>
        examplesOf(response.content).map((e) => ({ ...e, status: Number(status) || undefined })),
    );
    return { requests, responses };
  }

  /**
   * A reply assembled from the examples a vendor publishes on each property of the operation's reply schema
   * for `status` (its `default` reply when the status has none), for vendors that publish examples per
   * property rather than per reply (Mailchimp). Properties without an example are left out.
   */
  propertyExample(operationId: string, status: number): Json {
    const responses = (this.operation(operationId).responses ?? {}) as Record<string, Json>;
    const response = responses[String(status)] ?? responses.default;
    const media = Object.entries((response?.content ?? {}) as Record<string, Json>).find(([type]) =>
      /json/.test(type),
    )?.[1];
    const value = exampleOf(media?.schema);
    if (!value || typeof value !== 'object')
      throw new Error(`${operationId} publishes no property examples for ${status}`);
    return value as Json;
  }

  private operation(id: string): Json {
    const op = this.operations.get(id);
    if (!op) throw new Error(`The contract was not loaded with operation ${id}`);
    return op;
  }
}

/** A schema's published example, or an object of its properties' examples (allOf merged); undefined if none. */
function exampleOf(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const node = schema as Json;
  if (node.example !== undefined) return node.example;
  const parts = [node, ...((node.allOf as Json[] | undefined) ?? [])];
  const value: Json = {};
  for (const part of parts)
    for (const [name, property] of Object.entries((part.properties ?? {}) as Record<string, unknown>)) {
      const example = exampleOf(property);
      if (example !== undefined) value[name] = example;
    }
  return Object.keys(value).length ? value : undefined;
}

function examplesOf(content: unknown): PublishedExample[] {
  return Object.entries((content ?? {}) as Record<string, Json>).flatMap(([mediaType, media]) => [
    ...(media.example !== undefined ? [{ mediaType, value: media.example }] : []),
    ...Object.entries((media.examples ?? {}) as Record<string, Json>).map(([name, e]) => ({
      mediaType,
      name,
      value: e.value,
    })),
  ]);
}

/** Each problem once: the same one in every element of a list is named at its first element only. */
function distinct(problems: string[]): string[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = p.replace(/\/\d+(?=\/|\s)/g, '/*');
    return !seen.has(key) && !!seen.add(key);
  });
}

function describe(error: { instancePath?: string; message?: string; params?: unknown }): string {
  const params = error.params as { additionalProperty?: string; allowedValues?: unknown } | undefined;
  const extra = params?.additionalProperty
    ? ` (${params.additionalProperty})`
    : params?.allowedValues
      ? ` (${JSON.stringify(params.allowedValues)})`
      : '';
  return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${extra}`;
}

/**
 * The description with only the named operations and the components they reach through `$ref`: the
 * validator dereferences and compiles what it is given, and a 900 KB file of which we use five operations
 * would cost seconds.
 */
function pruneTo(document: Json, wanted: Set<string>): Json {
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(
        ([key, op]) => !METHODS.includes(key) || wanted.has((op as Json).operationId as string),
      ),
    );
    if (METHODS.some((m) => m in kept)) paths[path] = kept;
  }
  relocateXPaths(paths);
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const reached: Record<string, Record<string, unknown>> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/')) {
      const [kind, name] = ref.slice('#/components/'.length).split('/') as [string, string];
      if (!reached[kind]?.[name]) {
        (reached[kind] ??= {})[name] = components[kind]?.[name];
        visit(components[kind]?.[name]);
      }
    }
    for (const [key, value] of Object.entries(node))
      if (key !== 'example' && key !== 'examples') visit(value);
  };
  visit(paths);
  return { ...document, paths, components: { ...reached, securitySchemes: components.securitySchemes } };
}

/**
 * An operation published under one path but called at another (`x-path`, as Xero's getInvoiceAsPdf: the
 * PDF is `GET /Invoices/{id}` with `Accept: application/pdf`) moves to the path it is called at, with its
 * path's parameters, unless a kept operation already holds that method and path.
 */
function relocateXPaths(paths: Record<string, Json>): void {
  for (const [path, item] of Object.entries(paths))
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      const target = op?.['x-path'];
      if (
        !op ||
        typeof target !== 'string' ||
        target === path ||
        (paths[target] as Json | undefined)?.[method]
      )
        continue;
      const parameters = [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])];
      paths[target] = { ...paths[target], [method]: { ...op, parameters } };
      delete item[method];
      if (!METHODS.some((m) => m in item)) delete paths[path];
    }
}

/**
 * Closes every object schema that lists its properties and says nothing of others (VendorContractOptions
 * `closed`), after widening them by what the description's own examples show (widenByExamples).
 */
function closeObjects(document: Json): void {
  widenByExamples(document);
  const seen = new Set<unknown>();
  const close = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(close);
    const schema = node as Json;
    // An object that names no properties (`properties: {}`, as Mailchimp's template `sections`, keyed by the
    // template's own area names) is a map: it stays open.
    if (
      schema.properties &&
      typeof schema.properties === 'object' &&
      Object.keys(schema.properties).length > 0 &&
      schema.additionalProperties === undefined
    )
      schema.additionalProperties = false;
    for (const [key, value] of Object.entries(schema))
      if (key !== 'example' && key !== 'examples') close(value);
  };
  close(document.paths);
  close(document.components);
}

/**
 * Each object schema also takes, untyped, the names the description's own examples of the kept operations
 * show in its place: a vendor's examples are as published as its schemas, and what they show (Xero's
 * envelope `Id`, `Status`...; the element echoed in a ValidationException) is not ours to call a mismatch.
 */
function widenByExamples(document: Json): void {
  const schemas = ((document.components as Json).schemas ?? {}) as Record<string, Json>;
  const walk = (schema: Json | undefined, value: unknown): void => {
    const ref = schema?.$ref;
    if (typeof ref === 'string') schema = schemas[ref.split('/').pop()!];
    if (!schema || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v) => walk(schema.items as Json | undefined, v));
    const properties = schema.properties as Json | undefined;
    if (!properties) return;
    // The walk follows the example, never the schema alone, so a recursive schema ends with its example.
    for (const [name, v] of Object.entries(value)) walk((properties[name] ??= {}) as Json, v);
  };
  for (const item of Object.values(document.paths as Record<string, Json>))
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method] as Json;
      const media = [
        ...Object.values(((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>),
        ...Object.values((op.responses ?? {}) as Record<string, Json>).flatMap((r) =>
          Object.values((r.content ?? {}) as Record<string, Json>),
        ),
      ];
      for (const m of media)
        for (const example of examplesOf({ m })) walk(m.schema as Json | undefined, example.value);
    }
}
