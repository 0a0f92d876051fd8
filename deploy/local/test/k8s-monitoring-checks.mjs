// The checks k8s-monitoring.test.mjs runs over the Prometheus operator's objects an overlay renders to (the
// monitoring component, deploy/k8s-monitoring.mjs): their structure (until the operator's CRD schemas are
// vendored for schemaProblems), each alert's expression against the metrics the code defines, its runbook
// in docs/operations.md, and whether the ServiceMonitors reach every process's /metrics. Like
// k8s-checks.mjs, each returns its problems as sentences (none: the objects pass).
import fs from 'node:fs';
import path from 'node:path';

const MONITORING_API = 'monitoring.coreos.com/v1';
/** The CRD's Duration pattern (PrometheusRule spec.groups[].rules[].for). */
const DURATION =
  /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/;
const ALERT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SEVERITIES = ['critical', 'warning', 'info'];
const ANNOTATIONS = ['summary', 'description', 'runbook_url'];

// ---- metrics ------------------------------------------------------------------------------------------------

/** PromQL words that are neither metrics nor followed by `(`. */
const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges and label
 * lists (`by (...)`, `on (...)`, ...) are gone, less functions and aggregations (followed by `(`), keywords
 * and numbers.
 */
export function metricNamesOf(expr) {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set();
  for (const [, name] of bare.matchAll(/(?<![\w:.])([a-zA-Z_:][\w:]*)\b(?!\s*\()/g))
    if (!PROMQL_WORDS.has(name.toLowerCase())) names.add(name);
  return [...names];
}

/** The series a prom-client metric of each type exposes, besides its name. */
const SUFFIXES = {
  Counter: [''],
  Gauge: [''],
  Histogram: ['_bucket', '_sum', '_count'],
  Summary: ['_sum', '_count'],
};

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') yield* sourceFiles(file);
    else if (/\.ts$/.test(entry.name) && !/\.(spec|int-spec|d)\.ts$/.test(entry.name)) yield file;
  }
}

/**
 * Every series name the processes' code defines with prom-client (`new Counter({ name: '...' })` and the
 * like) in services/<service>/src and gateway/src: name -> the file that defines it.
 */
export function definedMetrics(root) {
  const dirs = [
    ...fs.readdirSync(path.join(root, 'services')).map((s) => path.join(root, 'services', s, 'src')),
    path.join(root, 'gateway', 'src'),
  ];
  const defined = new Map();
  for (const dir of dirs)
    for (const file of sourceFiles(dir)) {
      const code = fs.readFileSync(file, 'utf8');
      for (const [, type, name] of code.matchAll(
        /new (Counter|Gauge|Histogram|Summary)\b[^(]*\(\s*\{\s*name:\s*'([^']+)'/g,
      ))
        for (const suffix of SUFFIXES[type]) defined.set(`${name}${suffix}`, path.relative(root, file));
    }
  return defined;
}

// ---- runbooks -----------------------------------------------------------------------------------------------

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of the headings inside the `## <section>` of a Markdown text (up to the next `## `). */
export function sectionAnchors(markdown, section) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${section}`);
  if (start === -1) return new Set();
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return new Set(
    lines
      .slice(start + 1, end === -1 ? undefined : end)
      .filter((l) => /^#{3,6} /.test(l))
      .map((l) => anchorOf(l.replace(/^#+ /, ''))),
  );
}

// ---- the checks ---------------------------------------------------------------------------------------------

const nameOf = (o) => `${o.kind} ${o.metadata?.name}`;
const isStringMap = (value) =>
  value !== null && typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string');

/** A PrometheusRule's and a ServiceMonitor's shape, as far as this project writes them. */
function structureProblems(object) {
  const problems = [];
  const say = (what) => problems.push(`${nameOf(object)}: ${what}`);
  if (object.apiVersion !== MONITORING_API) say(`apiVersion ${object.apiVersion}, not ${MONITORING_API}`);
  if (typeof object.metadata?.name !== 'string') say('no metadata.name');
  if (object.kind === 'PrometheusRule') {
    const groups = object.spec?.groups;
    if (!Array.isArray(groups) || !groups.length) return [...problems, `${nameOf(object)}: no spec.groups`];
    const names = groups.map((g) => g.name);
    if (new Set(names).size !== names.length) say('group names repeat');
    for (const group of groups) {
      if (typeof group.name !== 'string' || !group.name) say('a group without a name');
      if (!Array.isArray(group.rules) || !group.rules.length) say(`group ${group.name}: no rules`);
    }
  } else if (object.kind === 'ServiceMonitor') {
    if (!object.spec?.selector || typeof object.spec.selector !== 'object') say('no spec.selector');
    const endpoints = object.spec?.endpoints;
    if (!Array.isArray(endpoints) || !endpoints.length) say('no spec.endpoints');
    for (const e of endpoints ?? [])
      if (typeof e.port !== 'string') say('an endpoint without a named port (port: <name>)');
  } else say(`no check for kind ${object.kind}`);
  return problems;
}

/**
 * Each alerting rule has an expression reading only known metrics, a `for`, a severity, and a summary,
 * description and runbook_url, the runbook an anchor of the runbooks' section.
 */
function ruleProblems(rule, { metrics, externalMetrics, runbooksUrl, runbookAnchors }) {
  const problems = [];
  const say = (what) => problems.push(`alert ${rule.alert}: ${what}`);
  if (typeof rule.alert !== 'string' || !ALERT_NAME.test(rule.alert))
    return [`a rule without a valid alert name (${rule.alert ?? rule.record})`];
  if (typeof rule.expr !== 'string' || !rule.expr.trim()) say('no expr');
  else
    for (const metric of metricNamesOf(rule.expr))
      if (!metrics.has(metric) && !(metric in externalMetrics))
        say(`expr reads ${metric}, which no process defines and no exporter is named for`);
  if (typeof rule.for !== 'string' || !DURATION.test(rule.for)) say(`for is ${rule.for ?? 'missing'}`);
  if (!isStringMap(rule.labels ?? {}) || !isStringMap(rule.annotations ?? {}))
    say('labels and annotations must be strings');
  if (!SEVERITIES.includes(rule.labels?.severity))
    say(`severity is ${rule.labels?.severity ?? 'missing'} (one of ${SEVERITIES.join(', ')})`);
  for (const key of ANNOTATIONS) if (!rule.annotations?.[key]) say(`no ${key} annotation`);
  const url = rule.annotations?.runbook_url;
  if (url) {
    const [base, anchor] = url.split('#');
    if (base !== runbooksUrl) say(`runbook_url ${url} is not in ${runbooksUrl}`);
    else if (!runbookAnchors.has(anchor))
      say(`runbook_url's #${anchor} is no runbook heading in docs/operations.md`);
  }
  return problems;
}

const matches = (selector, labels) =>
  Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v) &&
  (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const value = labels?.[key];
    if (operator === 'In') return values.includes(value);
    if (operator === 'NotIn') return !values.includes(value);
    if (operator === 'Exists') return value !== undefined;
    if (operator === 'DoesNotExist') return value === undefined;
    return false;
  });

/**
 * Every Deployment's pods are scraped: a Service selects them whose port a ServiceMonitor's endpoint names,
 * that port targets a port the container declares, and a NetworkPolicy lets the scraper in on it.
 */
function scrapeProblems(objects) {
  const problems = [];
  const monitors = objects.filter((o) => o.kind === 'ServiceMonitor');
  const services = objects.filter((o) => o.kind === 'Service');
  const admitted = objects
    .filter((o) => o.kind === 'NetworkPolicy')
    .flatMap((p) => (p.spec.ingress ?? []).map((rule) => ({ p, rule })));
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const podLabels = d.spec.template.metadata.labels;
    const container = d.spec.template.spec.containers[0];
    const scraped = services.flatMap((s) =>
      !matches({ matchLabels: s.spec.selector }, podLabels)
        ? []
        : monitors
            .filter((m) => matches(m.spec.selector, s.metadata.labels))
            .flatMap((m) =>
              (m.spec.endpoints ?? []).filter((e) => s.spec.ports.some((p) => p.name === e.port)),
            )
            .map((e) => ({ e, port: s.spec.ports.find((p) => p.name === e.port) })),
    );
    if (!scraped.length) {
      problems.push(`${nameOf(d)}: no ServiceMonitor scrapes a Service port of its pods`);
      continue;
    }
    for (const { e, port } of scraped) {
      const target = port.targetPort ?? port.port;
      if (!container.ports?.some((p) => p.name === target || p.containerPort === target))
        problems.push(
          `${nameOf(d)}: the scraped port ${e.port} targets ${target}, which its container does not declare`,
        );
      const open = admitted.some(
        ({ p, rule }) =>
          matches(p.spec.podSelector, podLabels) &&
          (rule.ports ?? []).some((rp) => rp.port === target || rp.port === port.targetPort),
      );
      if (!open) problems.push(`${nameOf(d)}: no NetworkPolicy admits the scraper to port ${target}`);
    }
  }
  return problems;
}

/**
 * Every problem of an overlay's monitoring objects. `context`: metrics (definedMetrics), externalMetrics,
 * runbooksUrl, runbookAnchors (sectionAnchors of docs/operations.md).
 */
export function monitoringProblems(objects, context) {
  const ours = objects.filter((o) => o.apiVersion?.startsWith('monitoring.coreos.com/'));
  const rules = ours
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((o) => (o.spec?.groups ?? []).flatMap((g) => g.rules ?? []));
  const names = rules.map((r) => r.alert);
  return [
    ...ours.flatMap(structureProblems),
    ...(new Set(names).size !== names.length ? ['alert names repeat'] : []),
    ...rules.flatMap((rule) => ruleProblems(rule, context)),
    ...(ours.length ? scrapeProblems(objects) : []),
  ];
}
