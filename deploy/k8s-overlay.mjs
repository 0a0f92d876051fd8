// What `kubectl kustomize deploy/k8s/overlays/<name>` does with the parts of Kustomize that deploy/k8s.mjs
// writes, done on plain objects: an overlay's resources (the base's, its components', its own), its
// `namespace` and its JSON 6902 `patches` picked by kind (and name, and labels). deploy/k8s.mjs renders each
// overlay with it, so the infra suite validates every object without kubectl; where kubectl exists, a test
// proves that Kustomize renders the committed files to exactly these objects.

/** Kinds without a namespace among those the tree holds (Kustomize leaves their metadata alone). */
const CLUSTER_SCOPED = new Set(['Namespace']);

/** `/a/b~1c/0` -> ['a', 'b/c', '0'] (RFC 6901). */
function pointer(path) {
  if (!path.startsWith('/')) throw new Error(`JSON pointer ${path} does not start with /`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(doc, path) {
  const tokens = pointer(path);
  const last = tokens.pop();
  let at = doc;
  for (const t of tokens) {
    at = Array.isArray(at) ? at[Number(t)] : at?.[t];
    if (at === undefined) throw new Error(`${path}: no ${t}`);
  }
  return { parent: at, key: last };
}

/** Applies RFC 6902 operations (add, replace, remove, test) to `doc` in place. */
export function applyJsonPatch(doc, ops) {
  for (const op of ops) {
    const { parent, key } = parentOf(doc, op.path);
    const value = structuredClone(op.value);
    if (op.op === 'test') {
      const at = Array.isArray(parent) ? parent[Number(key)] : parent[key];
      if (JSON.stringify(at) !== JSON.stringify(value))
        throw new Error(`test ${op.path}: expected ${JSON.stringify(value)}, found ${JSON.stringify(at)}`);
    } else if (op.op === 'add' && Array.isArray(parent)) {
      parent.splice(key === '-' ? parent.length : Number(key), 0, value);
    } else if (op.op === 'add' || op.op === 'replace') {
      if (op.op === 'replace' && !(key in parent)) throw new Error(`replace ${op.path}: nothing there`);
      parent[Array.isArray(parent) ? Number(key) : key] = value;
    } else if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else throw new Error(`unsupported JSON patch op ${op.op}`);
  }
  return doc;
}

/** `a=b,c=d` (a target's labelSelector, equality terms only) -> [['a', 'b'], ['c', 'd']]. */
function labelTerms(selector) {
  return selector.split(',').map((term) => {
    const m = /^([^=!]+)=([^=]*)$/.exec(term.trim());
    if (!m) throw new Error(`labelSelector term ${term}: only key=value is rendered here`);
    return [m[1], m[2]];
  });
}

/** Whether a patch's target (kind, and name and labelSelector when given) selects `object`. */
const selects = (target, object) =>
  object.kind === target.kind &&
  (target.name === undefined || object.metadata.name === target.name) &&
  (target.labelSelector === undefined ||
    labelTerms(target.labelSelector).every(([k, v]) => object.metadata.labels?.[k] === v));

/**
 * An overlay's objects: `objects` (base, components, its own resources), each patch applied to the objects
 * its target selects, in order, then the namespace set on every namespaced object.
 */
export function renderOverlay(objects, { namespace, patches = [] }) {
  const out = objects.map((o) => structuredClone(o));
  for (const { target, ops } of patches) {
    const hit = out.filter((o) => selects(target, o));
    if (hit.length === 0) throw new Error(`patch target ${JSON.stringify(target)} selects nothing`);
    for (const o of hit) applyJsonPatch(o, ops);
  }
  if (namespace)
    for (const o of out) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata = { ...o.metadata, namespace };
  return out;
}
