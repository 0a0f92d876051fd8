#!/usr/bin/env node
// `npm audit --omit=dev` held to a reviewed allow list (security/audit-allowlist.json): every advisory of a
// production dependency must be fixed, or listed with its reason and the date by which someone reviews it
// again; an entry past that date counts as not listed. `make test` runs it as scripts/test/npm-audit.test.mjs
// (the infra script suite); `node scripts/npm-audit.mjs` prints the same verdict for a person.
//
// The audit needs the registry's advisory endpoint (POST /-/npm/v1/security/advisories/bulk). Where it
// cannot be asked (no network, a mirror that serves packages only: 405), the test is skipped under the
// declared condition `npmAudit` and the summary says so; NPM_AUDIT_REQUIRED=1 makes that a failure instead
// (docs/security.md, "Dependency audit").
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ALLOW_LIST = path.join(ROOT, 'security', 'audit-allowlist.json');

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Today as YYYY-MM-DD (UTC): the day an entry's review date is compared with. */
export const today = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * What is wrong with the allow list's entries, as sentences: each needs `advisory` (a GHSA id or npm's
 * numeric source id), `package`, `reason` and `reviewBy` (YYYY-MM-DD); an entry past its `reviewBy` is
 * expired (reviewed again, its date moved on, or removed).
 */
export function allowListProblems(entries, day = today()) {
  if (!Array.isArray(entries)) return ['the allow list must be a JSON array of entries'];
  const problems = [];
  entries.forEach((entry, i) => {
    const at = `entry ${i + 1}${entry?.advisory ? ` (${entry.advisory})` : ''}`;
    for (const field of ['advisory', 'package', 'reason', 'reviewBy'])
      if (typeof entry?.[field] !== 'string' || !entry[field].trim())
        problems.push(`${at}: ${field} is required`);
    if (typeof entry?.reviewBy === 'string' && entry.reviewBy.trim()) {
      if (!DAY.test(entry.reviewBy)) problems.push(`${at}: reviewBy must be a date (YYYY-MM-DD)`);
      else if (entry.reviewBy < day)
        problems.push(`${at}: its review date ${entry.reviewBy} has passed; review it again or remove it`);
    }
  });
  return problems;
}

/** An advisory's id as the allow list names it: the GHSA id of its URL, else npm's numeric source id. */
const advisoryId = (via) => /GHSA-[\w-]+/.exec(via.url ?? '')?.[0] ?? String(via.source);

/** Every advisory of an `npm audit --json` report (version 2), once each: `{ id, package, severity, title }`. */
export function advisoriesOf(report) {
  const seen = new Map();
  for (const vulnerability of Object.values(report.vulnerabilities ?? {}))
    for (const via of vulnerability.via ?? [])
      if (typeof via === 'object' && via !== null) {
        const id = advisoryId(via);
        if (!seen.has(id))
          seen.set(id, {
            id,
            package: via.name ?? vulnerability.name,
            severity: via.severity,
            title: via.title,
          });
      }
  return [...seen.values()];
}

/**
 * The audit's verdict: the advisories neither fixed nor on the allow list (an expired entry lists nothing),
 * as sentences; empty when the production dependencies pass.
 */
export function auditFindings(report, entries, day = today()) {
  const allowed = new Set(
    (Array.isArray(entries) ? entries : [])
      .filter((e) => typeof e?.reviewBy === 'string' && DAY.test(e.reviewBy) && e.reviewBy >= day)
      .map((e) => e.advisory),
  );
  return advisoriesOf(report)
    .filter((a) => !allowed.has(a.id))
    .map(
      (a) =>
        `${a.id} (${a.package}, ${a.severity}): ${a.title} — fix it, or add it to security/audit-allowlist.json with a reason and a review date`,
    );
}

/** The allow list file's entries. */
export const readAllowList = (file = ALLOW_LIST) => JSON.parse(fs.readFileSync(file, 'utf8'));

/**
 * Runs `npm audit --omit=dev --json` at the repository root: `{ ok: true, report }` when the registry
 * answered (vulnerabilities or not), else `{ ok: false, reason }` (the endpoint could not be asked).
 */
export function runAudit(cwd = ROOT) {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (run.error) return { ok: false, reason: `npm could not be started (${run.error.message})` };
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return {
      ok: false,
      reason: `npm audit answered no JSON (exit ${run.status}): ${run.stderr.trim().split('\n').pop()}`,
    };
  }
  if (report && typeof report === 'object' && 'vulnerabilities' in report) return { ok: true, report };
  return {
    ok: false,
    reason: `the registry's audit endpoint could not be asked: ${report?.message ?? report?.error?.summary ?? `npm exited ${run.status}`}`,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = allowListProblems(readAllowList());
  const audit = runAudit();
  const findings = audit.ok ? auditFindings(audit.report, readAllowList()) : [];
  for (const line of [...problems, ...findings]) console.log(`[audit] ${line}`);
  if (!audit.ok) console.log(`[audit] not run: ${audit.reason}`);
  else if (!findings.length)
    console.log(`[audit] ${advisoriesOf(audit.report).length} advisories, none unreviewed`);
  process.exit(
    problems.length || findings.length || (!audit.ok && process.env.NPM_AUDIT_REQUIRED === '1') ? 1 : 0,
  );
}
