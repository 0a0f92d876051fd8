// What every part of deploy/local shares: the repository root and INFRA_DIR, environment numbers, and small
// process utilities (pid files, liveness, stopping, running a command, a lock on INFRA_DIR).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const STOP_TIMEOUT_MS = 30_000;

/** INFRA_DIR (default `.local`, relative to the repository root): jars, data, logs, pid files. */
export function infraDir() {
  return path.resolve(ROOT, process.env.INFRA_DIR || '.local');
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

export function intEnv(name, dflt) {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number.parseInt(v, 10);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${v}"`);
  return n;
}

export const splitList = (s) =>
  (s || '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A path as the user typed it when it lies under the current directory, else absolute. */
export function shown(file) {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

export function makeLog(log) {
  if (log === false || log === null) return () => {};
  if (typeof log === 'function') return log;
  return (line) => console.log(`[infra] ${line}`);
}

export function readPidFile(file) {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0].trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** True when the process exists and is not a zombie. */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

export function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Resident set size of a process in kB, from /proc/<pid>/status (null where unreadable). */
export function rssKb(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export function tail(file, lines = 40) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return `(no ${file})`;
  }
}

export function portOpen(port, host = '127.0.0.1', timeoutMs = 700) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (v) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(v);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Sends `signal`, waits up to `timeoutMs` for the process to go, then SIGKILL. Returns how it ended. */
export async function terminate(pid, signal, timeoutMs = STOP_TIMEOUT_MS) {
  if (!isAlive(pid)) return 'not running';
  try {
    process.kill(pid, signal);
  } catch {
    return 'not running';
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return signal;
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  return 'SIGKILL';
}

export function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/** Runs a command to its end; resolves { code, signal, out } with stdout and stderr together. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (e) => reject(e.code === 'ENOENT' ? new Error(`${cmd} not found on PATH`) : e));
    child.once('close', (code, signal) => resolve({ code, signal, out }));
  });
}

/**
 * Starts a long-running server detached from this process, its stdout and stderr appended to `logFile`,
 * and writes its pid to `pidFile`. Resolves the child once it has been spawned (not once it answers).
 */
export async function spawnDetached(cmd, args, { logFile, pidFile, header, ...opts }) {
  const fd = fs.openSync(logFile, header ? 'w' : 'a');
  if (header) fs.writeSync(fd, header);
  const child = spawn(cmd, args, { cwd: ROOT, detached: true, stdio: ['ignore', fd, fd], ...opts });
  fs.closeSync(fd);
  const err = await new Promise((resolve) => {
    child.once('error', resolve);
    child.once('spawn', () => resolve(null));
  });
  if (err) throw new Error(`could not start ${cmd}: ${err.message}`);
  child.unref();
  fs.writeFileSync(pidFile, `${child.pid}\n`);
  return child;
}

/**
 * A lock on INFRA_DIR so two `up`/`down` runs (two terminals, parallel test runners) do not race to start
 * the same broker. A lock left by a dead process is taken over.
 */
export async function withLock(dir, fn, timeoutMs = 300_000) {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'infra.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = readPidFile(lock);
      if (holder === process.pid) break; // re-entrant within one process
      if (!isAlive(holder)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock} is held by pid ${holder}`);
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    if (readPidFile(lock) === process.pid) fs.rmSync(lock, { force: true });
  }
}
