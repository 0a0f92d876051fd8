#!/usr/bin/env node
// `npm run new:service -- <name>`: scaffolds a service that `make up` starts and `make test` tests at once.
//
// It writes services/<name>/ (boot through the platform's defineService, its schema's first migration with
// the outbox table, an integration test on the real broker and database, a README) and proto/src/<name>/
// (its contract: the ping the platform answers; add requests and events there; and routes.ts, its empty
// group of the route table), then registers it:
//   services/manifest.json   a new entry (next free health port, schema, roles ["api"])
//   package-lock.json        npm links the new workspace
//   docker-compose.yml       regenerated from the manifest (deploy/compose.mjs)
//   deploy/k8s/              regenerated from the manifest (deploy/k8s.mjs): its Deployment, Service,
//                            autoscaler and egress policy
// Those are the only existing files it changes: proto's catalogue lists the services of the manifest through
// a generated module (proto/src/services.generated.ts, made by every build), and npm, jest, the stack, the
// test runner, the gateway's /health and the Dockerfile all read the manifest. docs/adding-a-service.md says
// what to do next.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifest, MANIFEST_FILE, ROOT } from './manifest.mjs';
import { writeServicesModule } from './proto-services.mjs';

const say = (line) => console.log(`[new:service] ${line}`);

/** `email-marketing` -> { pascal: 'EmailMarketing', camel: 'emailMarketing', schema: 'email_marketing' } */
export function namesOf(name) {
  const pascal = name
    .split('-')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
  return {
    name,
    pascal,
    camel: pascal.charAt(0).toLowerCase() + pascal.slice(1),
    schema: name.replace(/-/g, '_'),
  };
}

// `example` and `fixture` name the made-up services of the platform's and deploy's own tests.
const RESERVED = new Set([
  'platform',
  'gateway',
  'web',
  'proto',
  'common',
  'manifest',
  'services',
  'example',
  'fixture',
]);

/** Why `name` cannot be a new service, or undefined when it can. */
export function nameProblem(name, manifest = loadManifest()) {
  if (!name) return 'give the new service a name: npm run new:service -- <name>';
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 30)
    return `"${name}" is not a service name: lower-case letters and digits, words joined by "-", at most 30 characters`;
  if (RESERVED.has(name)) return `"${name}" is reserved`;
  if (manifest.services.some((s) => s.name === name)) return `a service named "${name}" exists already`;
  if (fs.existsSync(path.join(ROOT, 'services', name))) return `services/${name}/ exists already`;
  if (fs.existsSync(path.join(ROOT, 'proto', 'src', name))) return `proto/src/${name}/ exists already`;
  return undefined;
}

/** The dependency versions of a new service: the ones the platform uses, so npm adds nothing new. */
function dependencyVersions() {
  const platform = JSON.parse(fs.readFileSync(path.join(ROOT, 'services/platform/package.json'), 'utf8'));
  const versions = { ...platform.dependencies, '@irp/platform': platform.version };
  const deps = ['@irp/platform', '@irp/proto', '@nestjs/common', '@nestjs/core', '@nestjs/microservices'];
  deps.push('reflect-metadata', 'rxjs', 'typeorm', 'zod');
  return Object.fromEntries(deps.map((d) => [d, versions[d]]));
}

/** Every file of the new service and its proto folder, path -> text. */
export function serviceFiles(n, { migrationTimestamp = Date.now() } = {}) {
  const migration = `Create${n.pascal}${migrationTimestamp}`;
  const files = {};
  const svc = (p) => `services/${n.name}/${p}`;

  files[svc('package.json')] = `${JSON.stringify(
    {
      name: `@irp/${n.name}`,
      version: '0.1.0',
      private: true,
      description: `${n.pascal} service (scaffolded by npm run new:service; say what it owns)`,
      main: 'dist/main.js',
      scripts: { build: 'tsc -b', start: 'node dist/main.js', test: 'jest' },
      dependencies: dependencyVersions(),
    },
    null,
    2,
  )}\n`;

  files[svc('tsconfig.json')] = `{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist", "tsBuildInfoFile": "dist/.tsbuildinfo" },
  "include": ["src"],
  "exclude": ["src/**/*.spec.ts"],
  "references": [{ "path": "../../proto" }, { "path": "../platform" }]
}
`;

  files[svc('jest.config.js')] =
    `module.exports = require('../../jest.preset.js')({ roots: ['<rootDir>/src'] });
`;

  files[svc('jest.int.config.js')] = `// Integration tests: the real broker and database, run serially.
module.exports = require('../../jest.preset.js').integration();
`;

  files[svc('README.md')] = `# ${n.name} service

Owns: (say what this service owns, in the spec's words, and which topics it answers and emits).

- Schema \`${n.schema}\` (migrations in \`src/database/migrations/\`, the outbox table included).
- Contract: \`proto/src/${n.name}/\` (topics, messages, events, REST shapes, its route table entries in
  \`routes.ts\`).
- Roles: \`api\` (see services/manifest.json; add roles there and in \`src/app.module.ts\`).
- Tests: \`test/${n.name}.int-spec.ts\` on the real broker and database (\`node scripts/test.mjs integration\`).

Scaffolded by \`npm run new:service -- ${n.name}\`; see docs/adding-a-service.md.
`;

  files[svc('src/main.ts')] = `import 'reflect-metadata';
import { ${n.camel}Service } from './app.module';

export const start${n.pascal}Service = ${n.camel}Service.main(module);
`;

  files[svc('src/app.module.ts')] = `import { defineService } from '@irp/platform';
import { ${migration} } from './database/migrations/${migrationTimestamp}-Create${n.pascal}';

/**
 * The ${n.name} service. Boot, ping, health, metrics and the outbox come from the platform.
 * Stocks it needs: \`const stockProjection = stockProjectionRole(YourStockProjection)\`, its handlers and
 * providers in the role that keeps it; a vendor: a \`VendorHttpClient\`; its stand-in: \`standIns\` in
 * services/manifest.json (docs/adding-a-service.md, "Invoicing, a walk-through").
 */
export const ${n.camel}Service = defineService({
  name: '${n.name}',
  database: { entities: [], migrations: [${migration}] },
  providers: [],
  roles: { api: { handlers: [] } },
});
`;

  files[svc(`src/database/migrations/${migrationTimestamp}-Create${n.pascal}.ts`)] =
    `import { createOutboxTable, dropOutboxTable } from '@irp/platform';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** The ${n.schema} schema's first migration: the outbox its events leave through. Add the service's tables here. */
export class ${migration} implements MigrationInterface {
  name = '${migration}';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTable(q, '${n.schema}');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTable(q, '${n.schema}');
  }
}
`;

  files[svc(`test/${n.name}.int-spec.ts`)] = `import { INestApplication } from '@nestjs/common';
import { Topics } from '@irp/proto';
import { KafkaRequester } from '@irp/platform';
import { createTestRequester, dropSchema, serviceTestEnv } from '@irp/platform/testing';
import { DataSource } from 'typeorm';
import { start${n.pascal}Service } from '../src/main';

/** The ${n.name} service on the real broker and database: it boots, migrates its schema and answers. */
describe('${n.name} service on the real broker and database', () => {
  let app: INestApplication;
  let requester: KafkaRequester;

  beforeAll(async () => {
    await dropSchema('${n.schema}');
    app = await start${n.pascal}Service(serviceTestEnv());
    requester = await createTestRequester([Topics.${n.pascal}Ping]);
  });

  afterAll(async () => {
    await requester?.close();
    await app?.close();
  });

  it('answers its ping through Kafka', async () => {
    const reply = await requester.request(Topics.${n.pascal}Ping, {});
    expect(reply.service).toBe('${n.name}');
    expect(new Date(reply.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('has migrated its schema, outbox included', async () => {
    const [row] = await app.get(DataSource).query(\`SELECT to_regclass('${n.schema}.outbox') AS outbox\`);
    expect(row.outbox).toBe('${n.schema}.outbox');
  });

  it('reports healthy on /health', async () => {
    const { port } = app.getHttpServer().address();
    const res = await fetch(\`http://127.0.0.1:\${port}/health\`);
    expect(res.status).toBe(200);
  });
});
`;

  files[`proto/src/${n.name}/routes.ts`] = `import { defineRoutes } from '../common/routes';

/**
 * The ${n.name} service's REST routes: one entry per route the gateway serves for it (method, the spec's
 * path, the access rule built with \`access\` from '../common/routes', the request and response schemas).
 * The gateway binds each handler with \`@Route(routes.${n.camel}.<name>)\`; see docs/adding-a-service.md.
 */
export const ${n.camel}Routes = defineRoutes('${n.camel}', {});
`;

  files[`proto/src/${n.name}/index.ts`] = `import { defineServiceContract } from '../common/contract';
import { ${n.camel}Routes } from './routes';

export * from './routes';

/**
 * The ${n.name} service's side of the protocol: its request topics (\`${n.name}.<verb-noun>\`, request and
 * reply schemas), its events (\`<entity>.<past-tense>\`) and its REST routes (routes.ts). The
 * \`${n.name}.ping\` request comes with every contract. Put message schemas beside this file (messages.ts,
 * events.ts, rest.ts).
 */
export const ${n.camel}Contract = defineServiceContract({
  service: '${n.name}',
  routes: ${n.camel}Routes,
  requests: {},
  events: {},
});
`;
  return files;
}

/** The manifest with the new service added: the next health port after the highest in use. */
export function withService(manifest, n) {
  const healthPort = Math.max(...manifest.services.map((s) => s.healthPort)) + 1;
  return {
    ...manifest,
    services: [
      ...manifest.services,
      {
        name: n.name,
        workspace: `services/${n.name}`,
        package: `@irp/${n.name}`,
        healthPort,
        schema: n.schema,
        roles: ['api'],
      },
    ],
  };
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
}

export function newService(name) {
  const manifest = loadManifest();
  const problem = nameProblem(name, manifest);
  if (problem) throw new Error(problem);
  const n = namesOf(name);
  for (const [file, text] of Object.entries(serviceFiles(n))) {
    fs.mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
    fs.writeFileSync(path.join(ROOT, file), text);
    say(`created ${file}`);
  }
  const next = withService(manifest, n);
  fs.writeFileSync(MANIFEST_FILE, `${JSON.stringify(next, null, 2)}\n`);
  say(`registered ${name} in services/manifest.json (health port ${next.services.at(-1).healthPort})`);
  writeServicesModule(next);
  say('proto/src/services.generated.ts lists its contract');
  run(process.execPath, [path.join(ROOT, 'deploy', 'compose.mjs')]);
  say('docker-compose.yml regenerated');
  run(process.execPath, [path.join(ROOT, 'deploy', 'k8s.mjs')]);
  say('deploy/k8s/ regenerated');
  run('npm', ['install', '--no-audit', '--no-fund']);
  say('npm linked the workspace (package-lock.json)');
  say(`done: make test now starts and tests ${name}; next steps in docs/adding-a-service.md`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    newService(process.argv[2]);
  } catch (err) {
    console.error(`[new:service] ${err.message}`);
    process.exit(1);
  }
}
