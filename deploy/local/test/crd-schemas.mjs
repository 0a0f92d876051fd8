// Validates objects of custom kinds against the CRDs vendored in deploy/crds/ (Strimzi, the Prometheus
// operator; deploy/crds/README.md names each one's source and release): the `openAPIV3Schema` of the
// version the CRD serves, as the API server would with kubectl's strict field validation, offline.
// k8s-checks.mjs's schemaProblems uses it for every kind kubernetes-models and @kubernetes-models/keda do
// not know; a kind known to none of them is a problem.
//
// A CRD schema is an OpenAPI v3 structural schema, not a JSON Schema draft; ajv (strict mode off, since the
// x-kubernetes-* extensions are not JSON Schema keywords) checks it with these Kubernetes semantics added:
//   - a field a schema does not declare is refused, unless x-kubernetes-preserve-unknown-fields allows it
//     (the API server prunes it or, with strict field validation, refuses it: either way a typo is lost);
//   - Go's inline regex flags (`(?i)`) become JavaScript flags;
//   - the integer formats (int32, int64) and date-time are checked.
// Not checked: x-kubernetes-validations (CEL rules) and list-type uniqueness.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import YAML from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CRD_DIR = path.join(ROOT, 'deploy', 'crds');

/** `^(?i)(abort|warn)?$` -> /^(abort|warn)?$/i: RE2's inline flags, JavaScript's flags. */
function goRegExp(pattern, flags) {
  let extra = '';
  const source = pattern.replace(/\(\?([imsU]+)\)/g, (_, inline) => {
    extra += inline.replace('U', '');
    return '';
  });
  return new RegExp(source, [...new Set(flags + extra)].join(''));
}

/** The schema with Kubernetes' unknown-field rule made explicit (additionalProperties: false). */
function structural(schema) {
  if (Array.isArray(schema)) return schema.map(structural);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, structural(v)]));
  if (
    out.properties &&
    out.additionalProperties === undefined &&
    out['x-kubernetes-preserve-unknown-fields'] !== true
  )
    out.additionalProperties = false;
  return out;
}

function newAjv() {
  const ajv = new Ajv({ strict: false, allErrors: true, code: { regExp: goRegExp } });
  const int = (bits) => (n) => Number.isInteger(n) && Math.abs(n) <= 2 ** (bits - 1);
  ajv.addFormat('int32', { type: 'number', validate: int(32) });
  ajv.addFormat('int64', { type: 'number', validate: int(64) });
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  return ajv;
}

/** Every CRD in `dir` (and its subfolders), by the `apiVersion kind` of each version it serves. */
export function loadCrds(dir = CRD_DIR) {
  const byKind = new Map();
  const files = fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => path.join(dir, f));
  for (const file of files)
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS())) {
      if (doc?.kind !== 'CustomResourceDefinition') continue;
      for (const version of doc.spec.versions.filter((v) => v.served))
        byKind.set(`${doc.spec.group}/${version.name} ${doc.spec.names.kind}`, {
          file: path.relative(ROOT, file),
          schema: structural(version.schema.openAPIV3Schema),
        });
    }
  return byKind;
}

/**
 * A checker over the CRDs of `dir`: `knows(object)`, and `problems(object)` as sentences (none: valid).
 * Each schema is compiled once, when an object of its kind first comes.
 */
export function crdSchemas(dir = CRD_DIR) {
  const crds = loadCrds(dir);
  const ajv = newAjv();
  const compiled = new Map();
  const keyOf = (o) => `${o.apiVersion} ${o.kind}`;
  const validatorOf = (key) => {
    if (!compiled.has(key)) compiled.set(key, ajv.compile(crds.get(key).schema));
    return compiled.get(key);
  };
  return {
    kinds: () => [...crds.keys()],
    knows: (object) => crds.has(keyOf(object)),
    problems(object) {
      const validate = validatorOf(keyOf(object));
      if (validate(object)) return [];
      return validate.errors.map((e) => {
        const detail =
          e.keyword === 'additionalProperties'
            ? `has unknown field ${e.params.additionalProperty}`
            : e.keyword === 'enum'
              ? `${e.message} (${e.params.allowedValues.join(', ')})`
              : e.message;
        return `${e.instancePath || '/'} ${detail}`;
      });
    },
  };
}
