// The manifest reader, the scaffold's pieces and the generated proto service list (node --test; part of
// the infra suite of `make test`). The whole scaffold is proven by `npm run new:service -- probe && make
// test` on a fresh clone (docs/adding-a-service.md); these pin its rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseRoles, ROOT, serviceEntry } from '../manifest.mjs';
import { namesOf, nameProblem, serviceFiles, withService } from '../new-service.mjs';
import { servicesModule } from '../proto-services.mjs';

const { loadManifest, manifestProblems, serverWorkspaces } = createRequire(import.meta.url)(
  '../manifest.cjs',
);

const entry = (over = {}) => ({
  name: 'example',
  workspace: 'services/example',
  package: '@irp/example',
  healthPort: 3199,
  schema: 'example',
  roles: ['api'],
  ...over,
});

test('the committed manifest is valid and lists the server workspaces in build order', () => {
  const manifest = loadManifest();
  assert.deepEqual(manifestProblems(manifest), []);
  const workspaces = serverWorkspaces(manifest);
  assert.equal(workspaces[0], 'proto');
  assert.equal(workspaces[1], 'services/platform');
  assert.equal(workspaces.at(-1), 'gateway');
  // The stand-ins' workspace after the services (the ASX stand-in reuses announcements' mock source).
  assert.deepEqual(workspaces.slice(2, -1), [...manifest.services.map((s) => s.workspace), 'standins']);
  // A production image builds no stand-in.
  assert.deepEqual(
    serverWorkspaces(manifest, { standIns: false }).slice(2, -1),
    manifest.services.map((s) => s.workspace),
  );
});

test("a stand-in outside the standins workspace (e.g. in a service's sources) is refused", () => {
  const standIn = {
    name: 'asx-standin',
    workspace: 'services/x',
    script: 'dist/standin/main.js',
    port: 3251,
    portEnv: 'ASX_STANDIN_PORT',
    urlEnv: ['ASX_BASE_URL'],
    health: '/standin/health',
  };
  assert.deepEqual(manifestProblems({ services: [entry({ standIns: [standIn] })] }), [
    "services[0] (example).standIns[0].workspace must be standins (no stand-in in a service's sources)",
  ]);
  assert.deepEqual(
    manifestProblems({ services: [entry({ standIns: [{ ...standIn, workspace: 'standins' }] })] }),
    [],
  );
});

test('a manifest with clashing ports, a missing api role or a wrong workspace is refused, naming each problem', () => {
  const problems = manifestProblems({
    services: [
      entry(),
      entry({
        name: 'other',
        workspace: 'apps/other',
        package: '@irp/other',
        schema: 'other',
        roles: ['poller'],
      }),
    ],
  });
  assert.deepEqual(problems, [
    'services[1] (other).workspace must be services/other',
    'services[1] (other).roles must be a list of role names including "api"',
    'services[1] (other).healthPort 3199 is used by another service',
  ]);
});

test("a role's own consumers must name a role of the service and list topics", () => {
  const consumers = (c) =>
    manifestProblems({ services: [entry({ roles: ['api', 'sender'], consumers: c })] });
  assert.deepEqual(consumers({ sender: { requests: ['announcement.send-requested'] } }), []);
  assert.deepEqual(consumers({ poller: { requests: ['a'] }, sender: { Requests: [], urgent: 'a' } }), [
    "services[0] (example).consumers.poller: poller is not one of the service's roles",
    'services[0] (example).consumers.sender.Requests: a consumer name must match /^[a-z][a-z0-9-]{1,30}$/',
    'services[0] (example).consumers.sender.Requests must be a list of topic names',
    'services[0] (example).consumers.sender.urgent must be a list of topic names',
  ]);
});

test('ROLES are checked against the manifest: default all, unknown ones refused', () => {
  const announcements = entry({ name: 'announcements', roles: ['api', 'scheduler', 'poller'] });
  assert.deepEqual(parseRoles(announcements, undefined), ['api', 'scheduler', 'poller']);
  assert.deepEqual(parseRoles(announcements, 'poller'), ['poller']);
  assert.throws(
    () => parseRoles(announcements, 'poller,sender'),
    /has no role sender; its roles are api, scheduler, poller/,
  );
  assert.throws(() => serviceEntry('nope'), /no service named "nope"/);
});

test('a new service name must be new, lower-case and not reserved', () => {
  assert.equal(nameProblem('market-data'), undefined);
  assert.match(nameProblem(''), /give the new service a name/);
  assert.match(nameProblem('Probe'), /not a service name/);
  assert.match(nameProblem('platform'), /reserved/);
  assert.match(nameProblem('example'), /reserved/);
  assert.match(nameProblem('stocks'), /exists already/);
  assert.match(nameProblem('email-marketing'), /exists already/);
});

test('names: email-marketing is EmailMarketing, emailMarketing and schema email_marketing', () => {
  assert.deepEqual(namesOf('email-marketing'), {
    name: 'email-marketing',
    pascal: 'EmailMarketing',
    camel: 'emailMarketing',
    schema: 'email_marketing',
  });
});

test('the scaffold registers the service with the next free health port and the api role', () => {
  const manifest = loadManifest();
  const next = withService(manifest, namesOf('example'));
  const added = next.services.at(-1);
  assert.deepEqual(added, {
    name: 'example',
    workspace: 'services/example',
    package: '@irp/example',
    healthPort: Math.max(...manifest.services.map((s) => s.healthPort)) + 1,
    schema: 'example',
    roles: ['api'],
  });
  assert.deepEqual(manifestProblems(next), []);
});

test('the scaffold writes the boot, the first migration with the outbox, an integration test and the contract', () => {
  const files = serviceFiles(namesOf('email-marketing'), { migrationTimestamp: 1800000000000 });
  assert.deepEqual(Object.keys(files).sort(), [
    'proto/src/email-marketing/index.ts',
    'proto/src/email-marketing/routes.ts',
    'services/email-marketing/README.md',
    'services/email-marketing/jest.config.js',
    'services/email-marketing/jest.int.config.js',
    'services/email-marketing/package.json',
    'services/email-marketing/src/app.module.ts',
    'services/email-marketing/src/database/migrations/1800000000000-CreateEmailMarketing.ts',
    'services/email-marketing/src/main.ts',
    'services/email-marketing/test/email-marketing.int-spec.ts',
    'services/email-marketing/tsconfig.json',
  ]);
  assert.match(files['services/email-marketing/src/main.ts'], /emailMarketingService\.main\(module\)/);
  assert.match(
    files['services/email-marketing/src/app.module.ts'],
    /defineService\(\{\n {2}name: 'email-marketing'/,
  );
  // The scaffold points at the shared building blocks a new service wires in (the walk-through's names).
  assert.match(
    files['services/email-marketing/src/app.module.ts'],
    /stockProjectionRole\(.*VendorHttpClient/s,
  );
  assert.match(
    files['services/email-marketing/src/database/migrations/1800000000000-CreateEmailMarketing.ts'],
    /createOutboxTable\(q, 'email_marketing'\)/,
  );
  assert.match(
    files['services/email-marketing/test/email-marketing.int-spec.ts'],
    /Topics\.EmailMarketingPing/,
  );
  assert.match(
    files['proto/src/email-marketing/index.ts'],
    /export const emailMarketingContract = defineServiceContract/,
  );
  assert.match(
    files['proto/src/email-marketing/routes.ts'],
    /export const emailMarketingRoutes = defineRoutes\('emailMarketing', \{\}\);/,
  );
  assert.match(files['proto/src/email-marketing/index.ts'], /^export \* from '\.\/routes';$/m);
  assert.match(files['proto/src/email-marketing/index.ts'], /\n {2}routes: emailMarketingRoutes,\n/);
  const pkg = JSON.parse(files['services/email-marketing/package.json']);
  assert.equal(pkg.name, '@irp/email-marketing');
  assert.ok(pkg.dependencies['@irp/platform'] && pkg.dependencies['@nestjs/microservices']);
});

test("the scaffold's proto folder compiles against proto's common/ and puts its empty route group in the catalogue", () => {
  // The generated folder beside a copy of proto/src/common, compiled and run: its contract's routes are the
  // group routes.ts defines, under the service's camelCase name, and the group is empty.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'new-service-'));
  try {
    const n = namesOf('market-data');
    const files = serviceFiles(n, { migrationTimestamp: 1 });
    for (const [file, text] of Object.entries(files)) {
      if (!file.startsWith('proto/src/')) continue;
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    fs.cpSync(path.join(ROOT, 'proto/src/common'), path.join(dir, 'proto/src/common'), {
      recursive: true,
      filter: (source) => !source.endsWith('.spec.ts'),
    });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(
      path.join(dir, 'proto/src/check.ts'),
      `import assert from 'node:assert/strict';
import { assembleCatalogue } from './common/contract';
import { routeList } from './common/routes';
import { marketDataContract, marketDataRoutes } from './market-data/index';

const catalogue = assembleCatalogue([marketDataContract]);
assert.equal(catalogue.Routes.marketData, marketDataRoutes);
assert.deepEqual(routeList(catalogue.Routes), []);
`,
    );
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(ROOT, 'tsconfig.base.json'),
        compilerOptions: {
          rootDir: 'proto/src',
          outDir: 'dist',
          composite: false,
          incremental: false,
          types: ['node'],
        },
        include: ['proto/src'],
      }),
    );
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    const run = spawnSync(process.execPath, [path.join(dir, 'dist/check.js')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("proto's generated service list imports and lists each manifest service's contract, in order", () => {
  const text = servicesModule(loadManifest());
  const names = loadManifest().services.map((s) => s.name);
  for (const name of names) {
    const contract = `${name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase())}Contract`;
    assert.match(text, new RegExp(`import \\{ ${contract} \\} from './${name}/index';`));
    assert.match(text, new RegExp(`export \\* from './${name}/index';`));
  }
  const contracts = names.map((n) => `${n.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase())}Contract`);
  assert.ok(text.includes(`export const SERVICE_CONTRACTS = [${contracts.join(', ')}] as const;`), text);
  assert.deepEqual(contracts.slice(0, 2), ['usersContract', 'stocksContract']);
  assert.throws(
    () => servicesModule({ services: [...loadManifest().services, entry({ name: 'nowhere' })] }),
    /proto\/src\/nowhere\/index\.ts \(its contract\) is missing/,
  );
});

test('the stack starts every stand-in from the standins workspace, its URL variables pointed at it', async () => {
  const { standInSpecs } = await import('../stack.mjs');
  const specs = standInSpecs(loadManifest(), {});
  assert.deepEqual(
    specs.map((s) => s.name),
    [
      'places-standin',
      'asx-standin',
      'mail-inbox',
      'email-providers',
      'accounting-standin',
      'market-standin',
    ],
  );
  for (const spec of specs) {
    assert.match(spec.args[0], /^standins[/\\]dist[/\\]/, spec.name);
    assert.equal(spec.real, false);
  }
  const asx = specs.find((s) => s.name === 'asx-standin');
  assert.equal(asx.urls.ASX_BASE_URL, asx.url);
  // URL templates: the accounting API and its token endpoint under the stand-in's address.
  const accounting = specs.find((s) => s.name === 'accounting-standin');
  assert.equal(accounting.urls.ACCOUNTING_BASE_URL, `${accounting.url}/api.xro/2.0`);
  assert.equal(accounting.urls.ACCOUNTING_TOKEN_URL, `${accounting.url}/connect/token`);
  // A real vendor's URL set in the environment: the stand-in is not started.
  const real = standInSpecs(loadManifest(), { ASX_BASE_URL: 'https://a', ASX2_BASE_URL: 'https://b' });
  assert.equal(real.find((s) => s.name === 'asx-standin').real, true);
});

test("the links the stack mails open its web app: Vite's under --web dev, else the gateway's", async () => {
  const { publicBaseUrl } = await import('../stack.mjs');
  const web = `http://127.0.0.1:${process.env.WEB_PORT ?? 5173}`;
  const gateway = `http://127.0.0.1:${process.env.GATEWAY_PORT ?? 3000}`;
  assert.equal(publicBaseUrl('dev', {}), web);
  assert.equal(publicBaseUrl('dist', {}), gateway);
  assert.equal(publicBaseUrl('none', {}), gateway);
  // A proxy in front of the stack, named in the environment.
  assert.equal(publicBaseUrl('dev', { PUBLIC_BASE_URL: 'https://ir.example' }), 'https://ir.example');
});
