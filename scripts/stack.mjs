#!/usr/bin/env node
// Starts the whole portal on this machine: infrastructure (deploy/local/infra.mjs), demo data, every
// service of services/manifest.json, the gateway and the web app; prints the URL, the demo logins and the
// startup figures.
//
//   node scripts/stack.mjs up [--detach] [--web dev|dist|none] [--infra-env FILE]
//   node scripts/stack.mjs down
//   node scripts/stack.mjs stop <process>                 (one process of a running stack)
//   node scripts/stack.mjs start <process>                (start a stopped one again)
//   node scripts/stack.mjs start <service> --roles poller --instances 2
//                                                         (extra processes of some roles beside the stack)
//   node scripts/stack.mjs ps                             (what runs, with pids, roles and health ports)
//
// `up` in the foreground (make up) stops everything it started on Ctrl-C. `--detach` leaves the processes
// running (browser tests, benchmarks) until `down`. `--web dist` has the gateway serve web/dist (as in
// production); `--web dev` (default) runs the Vite dev server; `--web none` starts no web app. `--infra-env
// FILE` uses infrastructure an earlier `infra.mjs up` described in FILE, and leaves it running.
// HEALTH_PORT_OFFSET moves every service's health port (manifest port + offset); GATEWAY_PORT and WEB_PORT
// move the gateway and the web app.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as infra from '../deploy/local/infra.mjs';
import { loadManifest, parseRoles, serviceEntry, UsageError } from './manifest.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STATE_DIR = path.join(ROOT, '.local', 'stack');
const STATE = path.join(STATE_DIR, 'state.json');
const LOGS = path.join(ROOT, '.local', 'logs');

const GATEWAY_PORT = Number(process.env.GATEWAY_PORT ?? 3000);
const HEALTH_PORT_OFFSET = Number(process.env.HEALTH_PORT_OFFSET ?? 0);
const WEB_PORT = Number(process.env.WEB_PORT ?? 5173);

export const DEMO_LOGINS = [
  ['admin', 'Admin!2026', 'Admin: every screen'],
  ['reports', 'Reports!2026', 'RunReports'],
  ['useradmin', 'UserAdmin!2026', 'EditUsers'],
  ['client', 'Client!2026', 'client user with per-stock roles'],
  ['announcer', 'Announcer!2026', 'client user without ViewConfig'],
];

const say = (line) => console.log(`[stack] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function parseArgs(argv) {
  const opts = { detach: false, web: 'dev', infraEnv: undefined, roles: undefined, instances: undefined };
  const names = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--detach') opts.detach = true;
    else if (argv[i] === '--web') opts.web = argv[++i];
    else if (argv[i] === '--infra-env') opts.infraEnv = argv[++i];
    else if (argv[i] === '--roles') opts.roles = argv[++i];
    else if (argv[i] === '--instances') opts.instances = Number(argv[++i]);
    else if (argv[i].startsWith('--')) throw new Error(`unknown option ${argv[i]}`);
    else names.push(argv[i]);
  }
  if (!['dev', 'dist', 'none'].includes(opts.web))
    throw new Error(`--web must be dev, dist or none, not ${opts.web}`);
  if (
    opts.instances !== undefined &&
    !(Number.isInteger(opts.instances) && opts.instances >= 1 && opts.instances <= 16)
  )
    throw new Error('--instances must be a whole number from 1 to 16');
  return { opts, names };
}

// Waits until `url` answers. With the `child` it started, the wait follows that process, not a clock: it
// fails at once when the process exits, and otherwise waits as long as the process lives (a loaded machine
// may take minutes to start a JVM broker's consumers), saying every 30 s what it still waits on. A process
// that lives but never answers is stopped by the hang guard (`hangMs`, 15 minutes), far past any slow start.
async function waitFor(url, { ok = (r) => r.ok, name, logFile, child, hangMs = 15 * 60_000 } = {}) {
  const t0 = Date.now();
  let exited = null;
  const onExit = (code, signal) => (exited = signal ?? `exit code ${code}`);
  if (child) {
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    else child.once('exit', onExit);
  }
  let last = '';
  let told = t0;
  try {
    while (!exited && Date.now() - t0 < hangMs) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
        if (ok(res)) return;
        last = `HTTP ${res.status}`;
      } catch (err) {
        last = err.cause?.code ?? err.message;
      }
      if (Date.now() - told >= 30_000) {
        told = Date.now();
        say(`still waiting for ${name ?? url} after ${Math.round((told - t0) / 1000)} s (${last})`);
      }
      await sleep(150);
    }
  } finally {
    child?.off('exit', onExit);
  }
  const tail =
    logFile && fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n')
      : '';
  const why = exited
    ? `exited (${exited}) before it answered`
    : `did not answer within ${hangMs / 1000} s although its process lives`;
  throw new Error(`${name ?? url} ${why} (${last})${tail ? `\n--- ${logFile}\n${tail}` : ''}`);
}

function start(name, command, args, env, detach, cwd = ROOT) {
  fs.mkdirSync(LOGS, { recursive: true });
  const logFile = path.join(LOGS, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
    detached: true,
  });
  if (detach) child.unref();
  return { name, pid: child.pid, logFile, child };
}

async function stopPid(pid, name) {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    process.kill(pid, 'SIGTERM');
  }
  for (let i = 0; i < 100 && alive(); i++) await sleep(100);
  if (alive()) {
    say(`${name} did not stop in 10 s; killing`);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

async function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
    p.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`)),
    );
  });
}

function kafkaRssMb(env) {
  const pid = Number(env.KAFKA_PID);
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

/** The health port of a service's main process in this stack. */
const healthPortOf = (entry) => entry.healthPort + HEALTH_PORT_OFFSET;
/** The ports of a service's main process's listeners beyond health (manifest `listeners`), moved alike. */
const listenerPortsOf = (entry) =>
  Object.fromEntries((entry.listeners ?? []).map((l) => [l.portEnv, l.port + HEALTH_PORT_OFFSET]));

/**
 * How one process of a service starts and how to tell it is ready. `databaseUrls`: each tenant's own
 * DATABASE_URL by name (its role, made by the database bootstrap), which replaces the base's.
 */
function serviceSpec(
  entry,
  base,
  {
    roles = entry.roles,
    healthPort = healthPortOf(entry),
    instance,
    databaseUrls = {},
    listenerPorts = listenerPortsOf(entry),
  } = {},
) {
  const env = {
    ...base,
    DATABASE_URL: databaseUrls[entry.name] ?? base.DATABASE_URL,
    HEALTH_PORT: String(healthPort),
    ROLES: roles.join(','),
  };
  // The ports its roles serve beyond health (the bounce listener's SMTP).
  for (const l of entry.listeners ?? [])
    if (roles.includes(l.role)) env[l.portEnv] = String(listenerPorts[l.portEnv]);
  if (instance) env.INSTANCE_ID = instance;
  return {
    args: [path.join(entry.workspace, 'dist', 'main.js')],
    env,
    roles,
    healthPort,
    ready: {
      url: `http://127.0.0.1:${healthPort}/health`,
      name: `${entry.name} service (${roles.join(', ')})`,
    },
  };
}

/**
 * The vendor stand-ins of the manifest (e.g. the ASX feed) this stack starts: each on its port (+ the
 * health port offset), its URL variables pointed at it. A stand-in whose URL variables are all set in the
 * environment is not started: those URLs (a real vendor) are passed on instead.
 */
export function standInSpecs(manifest = loadManifest(), env = process.env) {
  const specs = [];
  for (const entry of manifest.services) {
    for (const standIn of entry.standIns ?? []) {
      const port = standIn.port + HEALTH_PORT_OFFSET;
      const url = `http://127.0.0.1:${port}`;
      // Extra ports the stand-in listens on (e.g. the SMTP port of the mail inbox), at their offset from `port`.
      const ports = Object.fromEntries(
        Object.entries(standIn.ports ?? {}).map(([name, offset]) => [name, String(port + offset)]),
      );
      // A URL variable's value: `urls` template ({url} and the extra ports' names), else the stand-in's URL.
      const urlOf = (v) =>
        (standIn.urls?.[v] ?? '{url}').replace(/\{([A-Za-z0-9_]+)\}/g, (_, k) =>
          k === 'url' ? url : ports[k],
        );
      const real = standIn.urlEnv.every((v) => env[v]);
      specs.push({
        name: standIn.name,
        real,
        urls: Object.fromEntries(standIn.urlEnv.map((v) => [v, real ? env[v] : urlOf(v)])),
        url,
        hint: standIn.hint?.replace(/\{url\}/g, url),
        args: [path.join(standIn.workspace, standIn.script)],
        env: { [standIn.portEnv]: String(port), ...ports },
        ready: {
          url: `${url}${standIn.health}`,
          name: `${standIn.name} (stand-in of ${standIn.urlEnv.join(', ')})`,
        },
      });
    }
  }
  return specs;
}

/**
 * Where this stack's web app is opened: the Vite dev server under `--web dev`, else the gateway (which serves
 * web/dist under `--web dist`, as in production). The services put it in every link they mail
 * (PUBLIC_BASE_URL: confirm, unsubscribe, comment response, report, PDF), so a link opens its page here;
 * PUBLIC_BASE_URL in the environment (a proxy in front of the stack) wins.
 */
export function publicBaseUrl(web, env = process.env) {
  if (env.PUBLIC_BASE_URL) return env.PUBLIC_BASE_URL;
  return `http://127.0.0.1:${web === 'dev' ? WEB_PORT : GATEWAY_PORT}`;
}

/** How each process of the stack starts: every service of the manifest, then the gateway. */
function processSpecs(opts, base, manifest = loadManifest(), databaseUrls = {}) {
  const specs = {};
  for (const entry of manifest.services) specs[entry.name] = serviceSpec(entry, base, { databaseUrls });
  const gatewayEnv = {
    ...base,
    DATABASE_URL: databaseUrls.gateway ?? base.DATABASE_URL,
    PORT: String(GATEWAY_PORT),
  };
  if (opts.web === 'dist') gatewayEnv.WEB_DIST = path.join(ROOT, 'web', 'dist');
  specs.gateway = {
    args: ['gateway/dist/main.js'],
    env: gatewayEnv,
    ready: {
      url: `http://127.0.0.1:${GATEWAY_PORT}/health`,
      name: 'gateway (with every service reachable over Kafka)',
    },
  };
  return specs;
}

/** A TCP port nothing listens on right now, for the health server of an extra process. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function readState() {
  return fs.existsSync(STATE) ? JSON.parse(fs.readFileSync(STATE, 'utf8')) : undefined;
}

const recorded = ({ name, pid, service, roles, healthPort, extra }) => ({
  name,
  pid,
  service,
  roles,
  healthPort,
  extra,
});

function writeState(state) {
  fs.writeFileSync(STATE, JSON.stringify({ ...state, processes: state.processes.map(recorded) }, null, 2));
}

/** Stops one process of a running stack (e.g. to see the gateway answer 503 while a service is down). */
export async function stopOne(name) {
  const state = readState();
  const p = state?.processes.find((x) => x.name === name);
  if (!p)
    throw new UsageError(
      `${name} is not part of the running stack (${state ? state.processes.map((x) => x.name).join(', ') : 'no stack running'})`,
    );
  await stopPid(p.pid, name);
  if (p.extra) state.processes = state.processes.filter((x) => x !== p);
  writeState(state);
  say(`stopped ${name}`);
}

/**
 * Starts one process of a running stack again (the others keep running), or, with `roles`/`instances`,
 * extra processes of a service that run only those roles (e.g. two more pollers beside `make up`). Extra
 * processes get names like `announcements-poller-2` and health ports the machine has free.
 */
export async function startOne(name, { roles, instances } = {}) {
  const state = readState();
  if (!state) throw new Error('no stack running: use `up` first');
  if (roles === undefined && instances === undefined) {
    const known = state.processes.find((x) => x.name === name);
    const spec = known?.extra
      ? serviceSpec(serviceEntry(known.service), state.base, {
          roles: known.roles,
          healthPort: known.healthPort,
          instance: name,
          databaseUrls: state.databaseUrls,
        })
      : (processSpecs(state.opts, state.base, undefined, state.databaseUrls)[name] ??
        standInSpecs().find((x) => x.name === name && !x.real));
    if (!spec) throw new Error(`${name} cannot be started on its own`);
    const p = start(name, process.execPath, spec.args, spec.env, true);
    await waitFor(spec.ready.url, { name: spec.ready.name, logFile: p.logFile, child: p.child });
    const entry = { ...known, name, pid: p.pid };
    state.processes = known
      ? state.processes.map((x) => (x === known ? entry : x))
      : [...state.processes, entry];
    writeState(state);
    say(`${name} started again (pid ${p.pid})`);
    return;
  }
  const entry = serviceEntry(name);
  const chosen = parseRoles(entry, roles);
  const tag = `${name}-${chosen.join('+')}`;
  const taken = new Set(state.processes.map((x) => x.name));
  for (let k = 1, made = 0; made < (instances ?? 1); k++) {
    const processName = `${tag}-${k}`;
    if (taken.has(processName)) continue;
    const listenerPorts = {};
    for (const l of entry.listeners ?? []) listenerPorts[l.portEnv] = await freePort();
    const spec = serviceSpec(entry, state.base, {
      roles: chosen,
      healthPort: await freePort(),
      instance: processName,
      databaseUrls: state.databaseUrls,
      listenerPorts,
    });
    const p = start(processName, process.execPath, spec.args, spec.env, true);
    await waitFor(spec.ready.url, { name: spec.ready.name, logFile: p.logFile, child: p.child });
    state.processes.push({
      name: processName,
      pid: p.pid,
      service: name,
      roles: chosen,
      healthPort: spec.healthPort,
      extra: true,
    });
    writeState(state);
    say(`${processName} up (pid ${p.pid}, roles ${chosen.join(', ')}, health on :${spec.healthPort})`);
    made++;
  }
}

/** What a running stack holds: each process, its pid, whether it is alive, its roles and health port. */
export function ps() {
  const state = readState();
  if (!state) return say('no stack running');
  for (const p of state.processes) {
    let alive = true;
    try {
      process.kill(p.pid, 0);
    } catch {
      alive = false;
    }
    console.log(
      `${p.name.padEnd(28)} pid ${String(p.pid).padEnd(8)} ${alive ? 'running' : 'stopped'}${p.roles ? `  roles ${p.roles.join(',')}` : ''}${p.healthPort ? `  health :${p.healthPort}` : ''}`,
    );
  }
}

export async function up(opts) {
  const t0 = Date.now();
  const madeStartedAt = Number(process.env.UP_STARTED_AT) || undefined;
  if (fs.existsSync(STATE)) {
    say('a previous stack is recorded; stopping it first');
    await down();
  }
  const manifest = loadManifest();
  for (const f of [...manifest.services.map((s) => `${s.workspace}/dist/main.js`), 'gateway/dist/main.js']) {
    if (!fs.existsSync(path.join(ROOT, f)))
      throw new Error(`${f} is missing: run \`npm run build:server\` (make up does)`);
  }
  if (opts.web === 'dist' && !fs.existsSync(path.join(ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: run `npm run build -w web`');

  let infraEnv;
  let infraEnvFile = opts.infraEnv;
  const ownsInfra = !infraEnvFile;
  if (ownsInfra) {
    infraEnvFile = path.join(ROOT, '.local', 'infra.env');
    await infra.up({ envFile: infraEnvFile, database: process.env.DATABASE_NAME ?? 'irportal' });
  }
  infraEnv = infra.readEnvFile(infraEnvFile);
  // Each service's (and the gateway's) own role and schema (docs/adr/0011): a process connects as its role.
  const databaseUrls = await infra.bootstrapLocalDatabase(infraEnv.DATABASE_URL);
  say(`database  a role and schema each for ${Object.keys(databaseUrls).join(', ')}`);
  const base = {
    KAFKA_BROKERS: infraEnv.KAFKA_BROKERS,
    DATABASE_URL: infraEnv.DATABASE_URL,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
    PUBLIC_BASE_URL: publicBaseUrl(opts.web),
    // Passkeys (issue 34) are bound to a host name, never an IP address: here `localhost`, so a passkey is
    // added and used at http://localhost:<port> (the printed 127.0.0.1 address signs in with a password).
    WEBAUTHN_RP_ID: process.env.WEBAUTHN_RP_ID ?? 'localhost',
    WEBAUTHN_ORIGINS:
      process.env.WEBAUTHN_ORIGINS ?? `http://localhost:${GATEWAY_PORT},http://localhost:${WEB_PORT}`,
  };
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const standIns = standInSpecs(manifest);
  for (const standIn of standIns) Object.assign(base, standIn.urls);
  const state = { ownsInfra, infraEnvFile, opts: { web: opts.web }, base, databaseUrls, processes: [] };
  const specs = processSpecs(opts, base, manifest, databaseUrls);
  const save = () => writeState(state);

  try {
    // Vendor stand-ins first: the services' adapters call them from their first poll.
    for (const standIn of standIns) {
      if (standIn.real) {
        say(
          `${standIn.name} not started: ${Object.entries(standIn.urls)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
        );
        continue;
      }
      const t = Date.now();
      // A stand-in may call another (the providers' stand-in mails through the SMTP one): every stand-in's
      // URL variables are in its environment.
      const standInEnv = { ...Object.assign({}, ...standIns.map((x) => x.urls)), ...standIn.env };
      const p = start(standIn.name, process.execPath, standIn.args, standInEnv, opts.detach);
      state.processes.push(p);
      save();
      await waitFor(standIn.ready.url, {
        name: standIn.ready.name,
        logFile: p.logFile,
        child: p.child,
      });
      say(
        `${standIn.name.padEnd(9)} up in ${((Date.now() - t) / 1000).toFixed(1)} s on ${standIn.url} (log ${path.relative(ROOT, p.logFile)})`,
      );
    }
    // Starts one process, records it, and waits until it answers.
    const launch = async (name, where) => {
      const t = Date.now();
      const p = start(name, process.execPath, specs[name].args, specs[name].env, opts.detach);
      state.processes.push(p);
      save();
      await waitFor(specs[name].ready.url, {
        name: specs[name].ready.name,
        logFile: p.logFile,
        child: p.child,
      });
      say(
        `${name.padEnd(9)} up in ${((Date.now() - t) / 1000).toFixed(1)} s ${where} (log ${path.relative(ROOT, p.logFile)})`,
      );
      return p;
    };
    // Each service in manifest order, its demo data seeded as soon as it runs (later seeds may need it).
    for (const entry of manifest.services) {
      await launch(
        entry.name,
        `(health on :${healthPortOf(entry)}, roles ${specs[entry.name].roles.join(', ')})`,
      );
      if (entry.seed) {
        // SEED_DEMO_USERS: the users seed's explicit opt-in (its demo accounts have published passwords).
        await run(process.execPath, [path.join(entry.workspace, entry.seed)], {
          ...base,
          DATABASE_URL: databaseUrls[entry.name],
          LOG_LEVEL: 'warn',
          SEED_DEMO_USERS: 'true',
        });
        say(`seed      ${entry.name} demo data created`);
      }
    }
    const gateway = await launch('gateway', `on :${GATEWAY_PORT}`);

    let url = `http://127.0.0.1:${GATEWAY_PORT}/`;
    if (opts.web === 'dev') {
      const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
      const webEnv = { GATEWAY_PORT: String(GATEWAY_PORT), WEB_PORT: String(WEB_PORT) };
      const web = start(
        'web',
        process.execPath,
        [vite, '--host', '127.0.0.1', '--port', String(WEB_PORT), '--strictPort'],
        webEnv,
        opts.detach,
        path.join(ROOT, 'web'),
      );
      state.processes.push(web);
      save();
      url = `http://127.0.0.1:${WEB_PORT}/`;
      await waitFor(url, { name: 'web app (Vite)', logFile: web.logFile, child: web.child });
      await waitFor(`${url}api/admin/refreshtoken`, {
        name: 'web app proxy to the gateway',
        ok: (r) => r.status === 401,
        logFile: web.logFile,
        child: web.child,
      });
    } else if (opts.web === 'dist') {
      await waitFor(url, {
        name: 'web app served by the gateway',
        logFile: gateway.logFile,
        child: gateway.child,
      });
    } else {
      url = `http://127.0.0.1:${GATEWAY_PORT}/api/`;
    }

    const rss = kafkaRssMb(infraEnv);
    const stackSeconds = ((Date.now() - t0) / 1000).toFixed(1);
    const totalSeconds = madeStartedAt ? ((Date.now() - madeStartedAt) / 1000).toFixed(1) : undefined;
    console.log('');
    console.log(`  IR Portal is running at ${url}`);
    console.log('');
    console.log('  Demo logins:');
    for (const [u, p, d] of DEMO_LOGINS) console.log(`    ${u.padEnd(10)} ${p.padEnd(15)} ${d}`);
    console.log('');
    console.log(
      `  API docs: http://127.0.0.1:${GATEWAY_PORT}/api/docs   health: http://127.0.0.1:${GATEWAY_PORT}/health`,
    );
    console.log(
      `  Startup: ${totalSeconds ? `${totalSeconds} s from make up to the URL answering (${stackSeconds} s of it starting the stack)` : `${stackSeconds} s to the URL answering`}`,
    );
    if (rss) console.log(`  Kafka broker RSS: ${rss} MB`);
    for (const standIn of standIns.filter((x) => !x.real)) {
      console.log(
        `  ${standIn.name}: ${standIn.url}${standIn.hint ? ` — ${standIn.hint.split('\n')[0]}` : ''}`,
      );
      for (const line of standIn.hint?.split('\n').slice(1) ?? []) console.log(`    ${line}`);
    }
    console.log(`  Logs: ${path.relative(ROOT, LOGS)}/`);
    console.log('');
    fs.writeFileSync(
      path.join(STATE_DIR, 'figures.json'),
      JSON.stringify(
        {
          url,
          stackSeconds: Number(stackSeconds),
          totalSeconds: totalSeconds && Number(totalSeconds),
          kafkaRssMb: rss,
        },
        null,
        2,
      ),
    );
  } catch (err) {
    console.error(`[stack] ${err.message}`);
    await down();
    throw err;
  }

  if (opts.detach) return;
  say('press Ctrl-C to stop everything');
  // The broker this stack started is started again if it dies (deploy/local/supervise.mjs).
  const unsupervise = ownsInfra
    ? infra.superviseKafka({
        envFile: infraEnvFile,
        restart: () => infra.up({ envFile: infraEnvFile, database: process.env.DATABASE_NAME ?? 'irportal' }),
        log: (line) => say(line),
      })
    : () => {};
  await new Promise((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      unsupervise();
      console.log('');
      say('stopping ...');
      down().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A process that exits leaves the rest running (the gateway answers 503 for a missing service);
    // `node scripts/stack.mjs start <name>` brings it back.
    for (const p of state.processes) {
      p.child.on('exit', (code, signal) => {
        if (!stopping)
          say(
            `${p.name} exited (${signal ?? code}); see ${path.relative(ROOT, p.logFile)}. Start it again with: node scripts/stack.mjs start ${p.name}`,
          );
      });
    }
  });
}

export async function down() {
  if (!fs.existsSync(STATE)) {
    say('nothing recorded as running');
    return;
  }
  const state = JSON.parse(fs.readFileSync(STATE, 'utf8'));
  // Reverse order: the web app and gateway go first, the services after them.
  for (const p of [...state.processes].reverse()) await stopPid(p.pid, p.name);
  say(`stopped ${state.processes.map((p) => p.name).join(', ') || 'no processes'}`);
  if (state.ownsInfra) await infra.down({ envFile: state.infraEnvFile });
  fs.rmSync(STATE, { force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...rest] = process.argv.slice(2);
  const commands = {
    up: () => up(parseArgs(rest).opts),
    down,
    stop: () => stopOne(parseArgs(rest).names[0]),
    start: () => {
      const { opts, names } = parseArgs(rest);
      return startOne(names[0], opts);
    },
    ps,
  };
  const main = commands[command];
  if (!main) {
    console.error(
      'usage: node scripts/stack.mjs up [--detach] [--web dev|dist|none] [--infra-env FILE] | down | ps | stop <process> | start <process> | start <service> --roles R[,R] [--instances N]',
    );
    process.exit(2);
  }
  Promise.resolve(main()).then(
    () => process.exit(process.exitCode ?? 0),
    (err) => {
      // A wrong name or role is a sentence for the person who typed it; anything else keeps its stack.
      console.error(err instanceof UsageError ? `[stack] ${err.message}` : (err.stack ?? err));
      process.exit(1);
    },
  );
}
