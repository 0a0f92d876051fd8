// Which Kafka topics each process reads and writes, read from the code (the KafkaUsers' ACLs of
// deploy/k8s-kafka.mjs), never listed by hand. A service's code is its src/ (tests aside) and the platform
// files it reaches through what it imports from @irp/platform (the stock projection's handlers and
// bootstrap). In that code, parsed with TypeScript (syntax only, no type check):
//   @HandleEvent(Topics.X) / @HandleRequest(Topics.X) (or Nest's @EventPattern / @MessagePattern)
//       the service consumes X: reads X, writes X.dlq (what fails validation) and, for a request, its
//       reply topic (proto's replyTopic: `<service>.reply`, one for all the service's requests)
//   any other Topics.X of a request topic (requester.request, a requester's `topics`)
//       the service asks another: writes X, reads the other's `<service>.reply`
//   any other Topics.X of an event topic (outbox.add, producer.send, the outbox rows a seed writes)
//       the service publishes X: writes X
// A helper of proto that names topics (`sendRequestTopicOf`) counts as those Topics.X where a service
// imports it. And proto's catalogue adds each request topic the service owns (its `<service>.ping` among them, which
// the platform answers). The gateway is the client of every request topic: its ServicesClient
// (gateway/src/kafka/services.client.ts) reads the reply topic of every service of proto's RequestCatalogue.

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const HANDLER_DECORATORS = new Set(['HandleEvent', 'HandleRequest', 'EventPattern', 'MessagePattern']);
const PLATFORM = '@irp/platform';

const isSource = (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts');

/** The .ts sources under `dir` (none when it does not exist yet: a manifest entry before its code). */
function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && isSource(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const parsed = new Map();
function parse(file) {
  if (!parsed.has(file))
    parsed.set(file, ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return parsed.get(file);
}

function walk(node, visit) {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** Whether `node` is inside the call of a handler decorator (`@HandleEvent(...)`). */
function inHandlerDecorator(node) {
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isDecorator(at))
      return (
        ts.isCallExpression(at.expression) &&
        ts.isIdentifier(at.expression.expression) &&
        HANDLER_DECORATORS.has(at.expression.expression.text)
      );
    if (ts.isClassDeclaration(at) || ts.isSourceFile(at)) return false;
  }
  return false;
}

/**
 * Every value use of `Topics.<constant>` in a file (or in one declaration of it): { constant, handled }.
 * `typeof Topics.X` is a type.
 */
function topicUses(sourceFile, within = sourceFile) {
  const uses = [];
  walk(within, (node) => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Topics'
    )
      uses.push({ constant: node.name.text, handled: inHandlerDecorator(node), file: sourceFile.fileName });
  });
  return uses;
}

/** Module specifier -> names imported from it, of one file. */
function importsOf(sourceFile) {
  const out = [];
  for (const s of sourceFile.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const bindings = s.importClause?.namedBindings;
    const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => e.name.text) : [];
    out.push({ from: s.moduleSpecifier.text, names });
  }
  return out;
}

/** Names a file declares as exported (functions, classes, constants). */
function exportedNames(sourceFile) {
  const names = [];
  const exported = (s) => ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const s of sourceFile.statements) {
    if (!exported(s)) continue;
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) names.push(s.name.text);
    if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
  }
  return names;
}

/**
 * The topics each of proto's exported helpers names (`sendRequestTopicOf`: the two send-request topics): a
 * service that imports one uses them as its own code would. Only the helper's own declaration counts, not
 * the rest of its file (the catalogue itself).
 */
function protoHelperUses(root) {
  const byName = new Map();
  const exported = (s) => ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const file of sourceFiles(path.join(root, 'proto', 'src'))) {
    const sourceFile = parse(file);
    for (const s of sourceFile.statements) {
      if (!exported(s)) continue;
      const declared = (ts.isFunctionDeclaration(s) && s.name ? [[s.name.text, s]] : []).concat(
        ts.isVariableStatement(s)
          ? s.declarationList.declarations.filter((d) => ts.isIdentifier(d.name)).map((d) => [d.name.text, d])
          : [],
      );
      for (const [name, node] of declared) {
        const uses = topicUses(sourceFile, node);
        if (uses.length) byName.set(name, uses);
      }
    }
  }
  return byName;
}

/** A relative import of `file` as the .ts file it names (`./x` -> x.ts or x/index.ts), if there is one. */
function resolveRelative(file, specifier) {
  const base = path.resolve(path.dirname(file), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
}

/** The platform's source files that declare each exported name. */
function platformExports(root) {
  const byName = new Map();
  for (const file of sourceFiles(path.join(root, 'services', 'platform', 'src')))
    if (!file.includes(`${path.sep}testing${path.sep}`))
      for (const name of exportedNames(parse(file))) byName.set(name, file);
  return byName;
}

/**
 * A service's code: its src/ files, and the platform files its imports from @irp/platform reach (with the
 * platform files those import in turn).
 */
function codeOf(root, service, exportsByName) {
  const own = sourceFiles(path.join(root, 'services', service, 'src'));
  const files = new Set(own);
  const pending = own.flatMap((file) =>
    importsOf(parse(file))
      .filter((i) => i.from === PLATFORM)
      .flatMap((i) => i.names.map((name) => exportsByName.get(name)).filter(Boolean)),
  );
  while (pending.length) {
    const file = pending.pop();
    if (files.has(file)) continue;
    files.add(file);
    for (const i of importsOf(parse(file)))
      if (i.from.startsWith('.')) {
        const next = resolveRelative(file, i.from);
        if (next && isSource(next)) pending.push(next);
      }
  }
  return [...files];
}

/**
 * What one service reads and writes: { reads, writes } (sets of topic names), from its code and proto's
 * catalogue (`Topics`, `RequestCatalogue`, `EventCatalogue`).
 */
export function serviceAccess(
  root,
  service,
  proto,
  exportsByName = platformExports(root),
  helperUses = protoHelperUses(root),
) {
  const { Topics, RequestCatalogue, EventCatalogue, replyTopic } = proto;
  const reads = new Set();
  const writes = new Set();
  const consume = (topic) => {
    reads.add(topic);
    writes.add(`${topic}.dlq`);
    if (RequestCatalogue[topic]) writes.add(replyTopic(topic));
  };
  for (const [topic, spec] of Object.entries(RequestCatalogue)) if (spec.service === service) consume(topic);
  const usesIn = (file) => [
    ...topicUses(parse(file)),
    ...importsOf(parse(file))
      .filter((i) => i.from === '@irp/proto')
      .flatMap((i) => i.names.flatMap((name) => helperUses.get(name) ?? [])),
  ];
  for (const file of codeOf(root, service, exportsByName))
    for (const { constant, handled } of usesIn(file)) {
      const topic = Topics[constant];
      if (!topic)
        throw new Error(`${path.relative(root, file)}: Topics.${constant} is not in proto's catalogue`);
      if (handled) consume(topic);
      else if (RequestCatalogue[topic]) {
        if (RequestCatalogue[topic].service === service) continue; // its own: consumed above
        writes.add(topic);
        reads.add(replyTopic(topic));
      } else if (EventCatalogue[topic]) writes.add(topic);
    }
  return { reads, writes };
}

/** The gateway: the client of every request topic (it writes each and reads every service's reply topic). */
export function gatewayAccess(proto) {
  const requests = Object.keys(proto.RequestCatalogue);
  return { reads: new Set(requests.map(proto.replyTopic)), writes: new Set(requests) };
}

/** Every manifest service's access, by name. */
export function servicesAccess(root, services, proto) {
  const exportsByName = platformExports(root);
  const helperUses = protoHelperUses(root);
  return new Map(
    services.map((s) => [s.name, serviceAccess(root, s.name, proto, exportsByName, helperUses)]),
  );
}
