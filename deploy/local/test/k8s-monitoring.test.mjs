// The prod overlay's monitoring objects (deploy/k8s-monitoring.mjs, components/monitoring/): every alert reads
// only metrics the processes define (or a named exporter's), has a severity, a `for` and a runbook in
// docs/operations.md, and every process is scraped. Broken copies prove the checks refuse what they should.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readManifest } from '../../generated.mjs';
import { EXTERNAL_METRICS, RUNBOOKS_URL } from '../../k8s-monitoring.mjs';
import { loadProto, renderedOverlay } from '../../k8s.mjs';
import { policyProblems } from './k8s-checks.mjs';
import {
  anchorOf,
  definedMetrics,
  metricNamesOf,
  monitoringProblems,
  sectionAnchors,
} from './k8s-monitoring-checks.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OPERATIONS = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
const RUNBOOKS = 'Alerts and runbooks';

const services = readManifest();
const proto = loadProto();
const render = (overlay) => renderedOverlay(overlay, services, proto);
const context = {
  metrics: definedMetrics(ROOT),
  externalMetrics: EXTERNAL_METRICS,
  runbooksUrl: RUNBOOKS_URL,
  runbookAnchors: sectionAnchors(OPERATIONS, RUNBOOKS),
};

const ruleOf = (objects) => objects.find((o) => o.kind === 'PrometheusRule');
const rulesOf = (objects) => ruleOf(objects).spec.groups.flatMap((g) => g.rules);
const alert = (objects, name) => rulesOf(objects).find((r) => r.alert === name);

test('metricNamesOf finds the metrics of an expression, not its functions, labels, keywords or numbers', () => {
  assert.deepEqual(
    metricNamesOf(
      'sum by (namespace, kind) (rate(email_mails_failed_total{kind!="test"}[15m])) / on (kind) group_left ' +
        '(kind) sum(rate(email_mails_accepted_total[5m] offset 1h)) or vector(0) > bool 1e3 unless up',
    ),
    ['email_mails_failed_total', 'email_mails_accepted_total', 'up'],
  );
  assert.deepEqual(metricNamesOf('histogram_quantile(0.95, sum by (le) (rate(x_bucket[5m])))'), ['x_bucket']);
  assert.deepEqual(metricNamesOf('max(irp_singleton_job_holder == 1)'), ['irp_singleton_job_holder']);
});

test("definedMetrics reads the processes' prom-client definitions, a histogram's series included", () => {
  const { metrics } = context;
  assert.equal(metrics.get('irp_dlq_depth'), path.join('services', 'platform', 'src', 'metrics.ts'));
  assert.equal(
    metrics.get('email_mails_failed_total'),
    path.join('services', 'email-marketing', 'src', 'sending', 'metrics.ts'),
  );
  for (const series of ['_bucket', '_sum', '_count'])
    assert.ok(metrics.has(`irp_kafka_handler_duration_seconds${series}`), series);
  // A histogram's own name is no series: an expression reading it would find nothing.
  assert.ok(!metrics.has('irp_kafka_handler_duration_seconds'));
  assert.ok(!metrics.has('irp_dlq_depth_bucket'));
});

test('prod: the alerts the operations team asked for, every process scraped, and no problem', () => {
  const objects = render('prod');
  assert.deepEqual(
    rulesOf(objects).map((r) => r.alert),
    [
      'IrpConsumerLagGrowing',
      'IrpDeadLetterQueueNotEmpty',
      'IrpOutboxBacklog',
      'IrpVendorRateLimited',
      'IrpSenderFailures',
      'IrpSingletonJobWithoutHolder',
      'IrpMetricsTargetDown',
    ],
  );
  assert.deepEqual(
    objects.filter((o) => o.kind === 'ServiceMonitor').map((o) => o.metadata.name),
    ['irportal-services', 'gateway'],
  );
  assert.ok(objects.every((o) => o.kind === 'Namespace' || o.metadata.namespace === 'irportal'));
  assert.deepEqual(monitoringProblems(objects, context), []);
});

test("dev: no monitoring objects (the Prometheus operator is prod's)", () => {
  assert.deepEqual(
    render('dev').filter(
      (o) => o.apiVersion.startsWith('monitoring.coreos.com/') || o.metadata.name === 'metrics-scrape',
    ),
    [],
  );
});

test('every alert in the rendered PrometheusRule has its runbook heading in docs/operations.md, and each heading an alert', () => {
  const alerts = rulesOf(render('prod')).map((r) => r.alert);
  const headings = [...context.runbookAnchors];
  assert.deepEqual(
    alerts.map((a) => anchorOf(a)),
    headings,
    'the runbooks, in the order of the alerts',
  );
  for (const rule of rulesOf(render('prod')))
    assert.equal(rule.annotations.runbook_url, `${RUNBOOKS_URL}#${anchorOf(rule.alert)}`);
});

test("an alert reading another exporter's metric says where it comes from", () => {
  const objects = render('prod');
  for (const rule of rulesOf(objects))
    for (const metric of metricNamesOf(rule.expr).filter((m) => m in EXTERNAL_METRICS))
      assert.ok(
        rule.annotations.description.includes(`${metric} comes from ${EXTERNAL_METRICS[metric]}`),
        `${rule.alert}: ${metric}`,
      );
  assert.match(alert(objects, 'IrpConsumerLagGrowing').annotations.description, /Kafka Exporter/);
});

test("the lag alert watches exactly the consumer groups of the manifest's roles", async () => {
  const { consumerGroupsOf } = await import('../../../services/platform/src/roles.ts');
  const { expr } = alert(render('prod'), 'IrpConsumerLagGrowing');
  const groups = services.flatMap((s) => consumerGroupsOf(s));
  assert.ok(groups.includes('email-marketing.sender.requests'), "a role's own consumer is watched too");
  const regex = /consumergroup=~"([^"]+)"/.exec(expr)[1].replaceAll('\\\\', '\\');
  for (const group of groups) assert.match(group, new RegExp(`^(?:${regex})$`), group);
  assert.doesNotMatch('announcementsXpoller', new RegExp(`^(?:${regex})$`), 'dots are literal');
});

test('the scrape NetworkPolicy passes the network policy (ingress from a namespace to the metrics ports only)', () => {
  const objects = render('prod');
  const scrape = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'metrics-scrape');
  scrape.spec.ingress[0].ports.push({ protocol: 'TCP', port: 'http' });
  const problems = policyProblems(objects, { services, autoscaled: false });
  assert.deepEqual(problems, ['NetworkPolicy metrics-scrape: admits ingress to pods other than the gateway']);
});

/** The problems monitoringProblems finds in a prod rendering after `change`. */
function problemsAfter(change, ctx = context) {
  const objects = render('prod');
  change(objects);
  return monitoringProblems(objects, ctx);
}

// Each broken copy, and the problems that must be found in it (and only those).
const BROKEN = [
  {
    what: 'a rule without its runbook_url',
    change: (o) => delete alert(o, 'IrpOutboxBacklog').annotations.runbook_url,
    problems: ['alert IrpOutboxBacklog: no runbook_url annotation'],
  },
  {
    what: 'a runbook_url to a heading docs/operations.md lacks',
    change: (o) =>
      (alert(o, 'IrpSenderFailures').annotations.runbook_url = `${RUNBOOKS_URL}#irpsenderfailure`),
    problems: [
      "alert IrpSenderFailures: runbook_url's #irpsenderfailure is no runbook heading in docs/operations.md",
    ],
  },
  {
    what: 'an expression on a metric no process defines (a typo)',
    change: (o) => (alert(o, 'IrpDeadLetterQueueNotEmpty').expr = 'max by (topic) (irp_dlq_dept) > 0'),
    problems: [
      'alert IrpDeadLetterQueueNotEmpty: expr reads irp_dlq_dept, which no process defines and no exporter is named for',
    ],
  },
  {
    what: 'a rule without for, severity or summary',
    change: (o) => {
      const rule = alert(o, 'IrpVendorRateLimited');
      delete rule.for;
      delete rule.labels.severity;
      delete rule.annotations.summary;
    },
    problems: [
      'alert IrpVendorRateLimited: for is missing',
      'alert IrpVendorRateLimited: severity is missing (one of critical, warning, info)',
      'alert IrpVendorRateLimited: no summary annotation',
    ],
  },
  {
    what: 'a rule without expr, and a for that is no duration',
    change: (o) => {
      const rule = alert(o, 'IrpMetricsTargetDown');
      delete rule.expr;
      rule.for = '5 minutes';
    },
    problems: ['alert IrpMetricsTargetDown: no expr', 'alert IrpMetricsTargetDown: for is 5 minutes'],
  },
  {
    what: 'two alerts of one name',
    change: (o) => (alert(o, 'IrpSenderFailures').alert = 'IrpVendorRateLimited'),
    problems: ['alert names repeat'],
  },
  {
    what: 'a ServiceMonitor on a port no Service has (the gateway unscraped)',
    change: (o) =>
      (o.find((x) => x.kind === 'ServiceMonitor' && x.metadata.name === 'gateway').spec.endpoints[0].port =
        'metrics'),
    problems: ['Deployment gateway: no ServiceMonitor scrapes a Service port of its pods'],
  },
  {
    what: 'the scrape policy without the health port',
    change: (o) => {
      const scrape = o.find((x) => x.kind === 'NetworkPolicy' && x.metadata.name === 'metrics-scrape');
      scrape.spec.ingress[0].ports = scrape.spec.ingress[0].ports.filter((p) => p.port !== 'health');
    },
    problems: services.flatMap((s) =>
      s.roles.map(
        (role) => `Deployment ${s.name}-${role}: no NetworkPolicy admits the scraper to port health`,
      ),
    ),
  },
  {
    what: 'a PrometheusRule with no groups and a ServiceMonitor without endpoints',
    change: (o) => {
      ruleOf(o).spec.groups = [];
      delete o.find((x) => x.kind === 'ServiceMonitor' && x.metadata.name === 'irportal-services').spec
        .endpoints;
    },
    problems: [
      'PrometheusRule irportal: no spec.groups',
      'ServiceMonitor irportal-services: no spec.endpoints',
      ...services.flatMap((s) =>
        s.roles.map(
          (role) => `Deployment ${s.name}-${role}: no ServiceMonitor scrapes a Service port of its pods`,
        ),
      ),
    ],
  },
];

for (const { what, change, problems } of BROKEN)
  test(`the monitoring checks refuse ${what}`, () => {
    const found = (() => {
      try {
        return problemsAfter(change);
      } catch (err) {
        return [`threw: ${err.message}`];
      }
    })();
    assert.deepEqual(found, problems);
  });

test('a metric renamed in the code fails its alert', () => {
  const metrics = new Map(context.metrics);
  metrics.delete('irp_singleton_job_holder');
  assert.deepEqual(
    problemsAfter(() => {}, { ...context, metrics }),
    [
      'alert IrpSingletonJobWithoutHolder: expr reads irp_singleton_job_holder, which no process defines and no exporter is named for',
    ],
  );
});

test('a runbook heading removed from docs/operations.md fails its alert', () => {
  const runbookAnchors = sectionAnchors(OPERATIONS.replace('### IrpOutboxBacklog\n', ''), RUNBOOKS);
  assert.deepEqual(
    problemsAfter(() => {}, { ...context, runbookAnchors }),
    ["alert IrpOutboxBacklog: runbook_url's #irpoutboxbacklog is no runbook heading in docs/operations.md"],
  );
});
