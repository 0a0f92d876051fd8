/**
 * A vendor's published protocol buffers (protobufjs's JSON descriptor, as Google's client packages ship
 * `protos.json`) as an OpenAPI document of the RPCs an adapter calls over HTTP/JSON, so `VendorContract`
 * checks them like any published description (ADR 0014). Each RPC becomes the operation its
 * `google.api.http` option names (the whole request message as the body, `body: "*"`), each message an
 * object schema under the proto3 JSON mapping: fields by their JSON (lowerCamel) names, 64-bit integers as
 * numbers or decimal strings, enums by name, maps as objects, well-known types as their JSON forms.
 */

type Json = Record<string, unknown>;

interface ProtoNamespace {
  nested?: Record<string, ProtoNode>;
}
interface ProtoField {
  type: string;
  rule?: 'repeated';
  keyType?: string;
}
interface ProtoNode extends ProtoNamespace {
  fields?: Record<string, ProtoField>;
  values?: Record<string, number>;
  methods?: Record<string, { requestType: string; responseType: string; options?: Record<string, string> }>;
}

export interface ProtoOperationsOptions {
  /** The RPCs called, fully named: `google.maps.places.v1.Places.AutocompletePlaces`. */
  rpcs: string[];
  /** The API's base URL (`https://places.googleapis.com`). */
  server: string;
  /** Headers each operation takes (the API key, the field mask), as OpenAPI header parameters. */
  headers?: Json[];
  /** The error reply of every operation (not part of the protos: its source is the caller's to name). */
  error?: Json;
}

const INTEGER = { type: 'integer' };
const INT64 = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d+$' }] };
const SCALARS: Record<string, Json> = {
  double: { type: 'number' },
  float: { type: 'number' },
  int32: INTEGER,
  sint32: INTEGER,
  sfixed32: INTEGER,
  uint32: INTEGER,
  fixed32: INTEGER,
  int64: INT64,
  sint64: INT64,
  sfixed64: INT64,
  uint64: INT64,
  fixed64: INT64,
  bool: { type: 'boolean' },
  string: { type: 'string' },
  bytes: { type: 'string' },
};
/** The well-known types' JSON forms (proto3 JSON mapping). */
const WELL_KNOWN: Record<string, Json> = {
  'google.protobuf.Timestamp': { type: 'string' },
  'google.protobuf.Duration': { type: 'string' },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.Any': { type: 'object' },
  'google.protobuf.Empty': { type: 'object' },
  'google.protobuf.StringValue': { type: 'string' },
  'google.protobuf.BytesValue': { type: 'string' },
  'google.protobuf.BoolValue': { type: 'boolean' },
  'google.protobuf.DoubleValue': { type: 'number' },
  'google.protobuf.FloatValue': { type: 'number' },
  'google.protobuf.Int32Value': INTEGER,
  'google.protobuf.UInt32Value': INTEGER,
  'google.protobuf.Int64Value': INT64,
  'google.protobuf.UInt64Value': INT64,
};

/** The OpenAPI document of `options.rpcs` in `root` (a protobufjs JSON descriptor). */
export function protoOperations(root: ProtoNamespace, options: ProtoOperationsOptions): Json {
  const schemas: Record<string, Json> = {};
  const lookup = (name: string): ProtoNode | undefined =>
    name.split('.').reduce<ProtoNode | undefined>((node, part) => node?.nested?.[part], root as ProtoNode);
  /** A type name as written in `scope` (relative, or fully qualified), resolved as protoc does. */
  const resolve = (type: string, scope: string): string => {
    if (type.startsWith('.')) return type.slice(1);
    for (let at = scope.split('.'); ; at = at.slice(0, -1)) {
      const candidate = [...at, type].filter(Boolean).join('.');
      if (WELL_KNOWN[candidate] || lookup(candidate)) return candidate;
      if (!at.length) throw new Error(`the protos do not define ${type} (from ${scope})`);
    }
  };
  const schemaOf = (type: string, scope: string): Json => {
    if (SCALARS[type]) return SCALARS[type];
    const name = resolve(type, scope);
    if (WELL_KNOWN[name]) return WELL_KNOWN[name];
    if (!schemas[name]) {
      const node = lookup(name)!;
      if (node.values) {
        schemas[name] = { anyOf: [{ type: 'string', enum: Object.keys(node.values) }, INTEGER] };
      } else {
        schemas[name] = { type: 'object' }; // before the fields: a message may contain itself
        const properties: Record<string, Json> = {};
        for (const [field, spec] of Object.entries(node.fields ?? {})) {
          const value = schemaOf(spec.type, name);
          properties[field] = spec.keyType
            ? { type: 'object', additionalProperties: value }
            : spec.rule === 'repeated'
              ? { type: 'array', items: value }
              : value;
        }
        schemas[name] = { type: 'object', properties };
      }
    }
    return { $ref: `#/components/schemas/${name}` };
  };

  const paths: Record<string, Json> = {};
  for (const rpc of options.rpcs) {
    const service = rpc.slice(0, rpc.lastIndexOf('.'));
    const method = lookup(service)?.methods?.[rpc.slice(rpc.lastIndexOf('.') + 1)];
    if (!method) throw new Error(`the protos define no RPC ${rpc}`);
    const http = Object.entries(method.options ?? {}).find(([key]) =>
      /^\(google\.api\.http\)\.(get|put|post|patch|delete)$/.test(key),
    );
    if (!http) throw new Error(`${rpc} has no google.api.http option`);
    const verb = http[0].slice('(google.api.http).'.length);
    const scope = service.slice(0, service.lastIndexOf('.'));
    const operation: Json = {
      operationId: rpc.slice(rpc.lastIndexOf('.') + 1),
      parameters: options.headers ?? [],
      responses: {
        '200': {
          description: method.responseType,
          content: { 'application/json': { schema: schemaOf(method.responseType, scope) } },
        },
        ...(options.error
          ? { default: { description: 'error', content: { 'application/json': { schema: options.error } } } }
          : {}),
      },
    };
    if (method.options?.['(google.api.http).body'] === '*')
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: schemaOf(method.requestType, scope) } },
      };
    (paths[http[1]] ??= {})[verb] = operation;
  }
  return {
    openapi: '3.0.3',
    info: { title: options.rpcs.join(', '), version: 'protos' },
    servers: [{ url: options.server }],
    paths,
    components: { schemas },
  };
}
