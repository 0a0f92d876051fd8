// The shape issue 32 asks of every service's code, checked on the tree (scripts/test/code-shape.test.mjs):
// a use case per file keeps `*.service.ts` files short, no production file grows past a reader's screenful
// of screens, and no hand-written row type restates a table (docs/adr/0012: rows are typed from entities).
import fs from 'node:fs';
import path from 'node:path';

/** Lines a `*.service.ts` may have: past it, a service holds several use cases. */
export const SERVICE_FILE_LINES = 200;
/** Lines any production source file may have. */
export const SOURCE_FILE_LINES = 400;

/** Production source folders: what ships, not tests, fixtures or migrations. */
const SOURCE_ROOTS = ['services', 'gateway/src', 'web/src', 'proto/src'];
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const NOT_PRODUCTION =
  /(\.(spec|test|int-spec|e2e)\.[tj]sx?$|\.d\.ts$|\/(test|tests|__tests__|testing|fixtures|migrations|dist|node_modules)\/)/;
/**
 * A type named as a database row and written out by hand: `interface RawInvoice`, `type QuoteRow = {`. One
 * derived from an entity (`type StoredSubscriber = Pick<SubscriberEntity, ...>`) is what ADR 0012 asks for.
 */
const ROW_TYPE =
  /^\s*(?:export\s+)?(?:interface\s+(Raw[A-Z]\w*|\w+Row)\b|type\s+(Raw[A-Z]\w*|\w+Row)\s*=\s*\{)/;

function* walk(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

/** Each production source file under `root`, relative to it. */
export function productionFiles(root) {
  const files = [];
  for (const folder of SOURCE_ROOTS)
    for (const file of walk(path.join(root, folder))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      // Under services/, only each service's src/ ships.
      if (rel.startsWith('services/') && !/^services\/[^/]+\/src\//.test(rel)) continue;
      if (!NOT_PRODUCTION.test(`/${rel}`)) files.push(rel);
    }
  return files.sort();
}

/** What breaks the shape, one line each (empty when none). */
export function codeShapeProblems(root) {
  const problems = [];
  for (const rel of productionFiles(root)) {
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
    if (rel.endsWith('.service.ts') && count > SERVICE_FILE_LINES)
      problems.push(
        `${rel}: ${count} lines, over ${SERVICE_FILE_LINES} for a *.service.ts (a use case per file)`,
      );
    else if (count > SOURCE_FILE_LINES) problems.push(`${rel}: ${count} lines, over ${SOURCE_FILE_LINES}`);
    if (rel.startsWith('services/') || rel.startsWith('gateway/'))
      lines.forEach((line, i) => {
        const row = ROW_TYPE.exec(line);
        if (row)
          problems.push(
            `${rel}:${i + 1}: ${row[1] ?? row[2]} is a hand-written row type (type rows from entities: docs/adr/0012)`,
          );
      });
  }
  return problems;
}
