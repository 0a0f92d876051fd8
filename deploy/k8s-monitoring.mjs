// The monitoring component of deploy/k8s/ (components/monitoring/, used by the prod overlay), as data: the
// Prometheus operator's ServiceMonitors that scrape every process's /metrics, the PrometheusRule of IR
// Portal's alerts, and the NetworkPolicy that lets the scraper past the default deny. deploy/k8s.mjs writes
// it with the rest of the tree.
//
// Every alert's expression reads metrics that IR Portal's processes define (prom-client in services/*/src and
// the platform) or that EXTERNAL_METRICS names with their exporter; k8s-monitoring.test.mjs holds each
// expression to that, and each alert to a runbook in docs/operations.md ("Alerts and runbooks").

/** Where the Prometheus that scrapes these runs (kube-prometheus' namespace): the NetworkPolicy admits it. */
export const MONITORING_NAMESPACE = 'monitoring';
/**
 * The runbooks: docs/operations.md as your team browses it (set yours, as INGRESS_HOST). Each alert's
 * runbook_url is this with the anchor of the alert's heading (its name in lower case).
 */
export const RUNBOOKS_URL = 'https://git.example.com/irportal/ir-portal/blob/main/docs/operations.md';
/** The named container ports /metrics answers on: a service's HEALTH_PORT, the gateway's OPS_PORT. */
const METRICS_PORTS = { service: 'health', gateway: 'ops' };
const SCRAPE_INTERVAL = '30s';

/**
 * Metrics an alert reads that no IR Portal process exports, with where they come from (each such alert's
 * description says so). The lag of a consumer group is the broker's business, not a consumer's: Strimzi's
 * Kafka Exporter (the Kafka resource's `spec.kafkaExporter`, which runs kafka_exporter) exports it.
 */
export const EXTERNAL_METRICS = {
  kafka_consumergroup_lag:
    "Kafka Exporter (Strimzi's spec.kafkaExporter of the Kafka cluster, i.e. kafka_exporter), scraped by your Prometheus",
  up: 'Prometheus itself, for every target it scrapes',
};

/**
 * Prometheus' scrape gives every series the target's `service` (the Kubernetes Service) and `job` labels;
 * the same labels exported by a process (the platform's default `service`, a singleton job's `job`) are kept
 * as `exported_service` and `exported_job` (the ServiceMonitors leave honorLabels false, so a process cannot
 * pass for another target).
 */
const EXPORTED = { service: 'exported_service', job: 'exported_job' };

/** A PromQL regex alternative matching exactly these names. */
const anyOf = (names) => names.map((n) => n.replaceAll('.', '\\\\.')).join('|');

/**
 * The alerts, by group. `for` is how long the condition must hold; severity `critical` pages (work stops),
 * `warning` is for working hours. `{{ $labels.x }}` and `{{ $value }}` are filled in by Prometheus.
 */
function alertGroups({ consumerGroups, scrapedServices }) {
  return [
    {
      name: 'irportal.messaging',
      rules: [
        {
          alert: 'IrpConsumerLagGrowing',
          expr:
            `sum by (consumergroup) (kafka_consumergroup_lag{consumergroup=~"${anyOf(consumerGroups)}"}) > 100\n` +
            `and sum by (consumergroup) (deriv(kafka_consumergroup_lag{consumergroup=~"${anyOf(consumerGroups)}"}[10m])) > 0`,
          for: '10m',
          severity: 'warning',
          summary: 'Consumer group {{ $labels.consumergroup }} falls further behind',
          description:
            'Consumer group {{ $labels.consumergroup }} has {{ $value }} messages waiting and the lag has grown for 10 minutes: its role consumes slower than messages arrive (at its autoscaler maximum, stuck, or failing and retrying).',
        },
        {
          alert: 'IrpDeadLetterQueueNotEmpty',
          expr: 'max by (namespace, topic) (irp_dlq_depth) > 0',
          for: '5m',
          severity: 'warning',
          summary: 'Dead letters in {{ $labels.topic }}',
          description:
            '{{ $labels.topic }} holds {{ $value }} messages that a handler refused (invalid, refused by a rule, or transient failures past the retry bound). Each is work that did not happen.',
        },
        {
          alert: 'IrpOutboxBacklog',
          expr: `max by (namespace, ${EXPORTED.service}) (irp_outbox_oldest_unpublished_seconds) > 60`,
          for: '5m',
          severity: 'critical',
          summary: "{{ $labels.exported_service }}'s outbox is not being published",
          description:
            "The oldest event in {{ $labels.exported_service }}'s outbox has waited {{ $value | humanizeDuration }}: its relay cannot publish to Kafka, so every consumer of its events (projections, mails, notifications) is behind.",
        },
      ],
    },
    {
      name: 'irportal.vendors',
      rules: [
        {
          alert: 'IrpVendorRateLimited',
          expr: `sum by (namespace, ${EXPORTED.service}, vendor) (rate(irp_vendor_rate_limited_total[10m])) > 0.05`,
          for: '15m',
          severity: 'warning',
          summary: '{{ $labels.vendor }} keeps answering 429 Too Many Requests',
          description:
            '{{ $labels.exported_service }} gets {{ $value | humanize }} 429s a second from {{ $labels.vendor }} (averaged over 10 minutes, for 15): calls wait out Retry-After and may run out of attempts, so polls, sends or syncs lag or fail.',
        },
        {
          alert: 'IrpSenderFailures',
          // A kind that only fails has no accepted series: `or ... * 0` gives it a zero so the ratio is 1.
          expr:
            'sum by (namespace, kind) (rate(email_mails_failed_total[15m]))\n' +
            '/ (sum by (namespace, kind) (rate(email_mails_failed_total[15m]))\n' +
            '   + (sum by (namespace, kind) (rate(email_mails_accepted_total[15m]))\n' +
            '      or sum by (namespace, kind) (rate(email_mails_failed_total[15m])) * 0))\n' +
            '> 0.05',
          for: '15m',
          severity: 'warning',
          summary: 'More than 5% of {{ $labels.kind }} mails fail',
          description:
            '{{ $value | humanizePercentage }} of the {{ $labels.kind }} mails the senders finished in the last 15 minutes failed for good (refused by the mail server, or out of attempts).',
        },
      ],
    },
    {
      name: 'irportal.processes',
      rules: [
        {
          alert: 'IrpSingletonJobWithoutHolder',
          // Jobs seen in the last hour, less those a process holds now: also fires when every contender is gone.
          expr:
            `max by (namespace, ${EXPORTED.job}) (max_over_time(irp_singleton_job_holder[1h]))\n` +
            `unless on (namespace, ${EXPORTED.job}) max by (namespace, ${EXPORTED.job}) (irp_singleton_job_holder == 1)`,
          for: '5m',
          severity: 'critical',
          summary: 'Singleton job {{ $labels.exported_job }} has no holder',
          description:
            'No process holds the lock of singleton job {{ $labels.exported_job }} (normally taken over within seconds): the job (schedules, sweeps, syncs) does not run.',
        },
        {
          alert: 'IrpMetricsTargetDown',
          expr: `max by (namespace, service) (up{service=~"${anyOf(scrapedServices)}"}) == 0`,
          for: '5m',
          severity: 'critical',
          summary: 'No {{ $labels.service }} process answers /metrics',
          description:
            'Prometheus has not scraped any pod of {{ $labels.service }} for 5 minutes: the role is down or unreachable, and the alerts that read its metrics are blind.',
        },
      ],
    },
  ];
}

/** Names the external metrics an expression reads in its alert's description. */
function withSources(rule) {
  const external = Object.keys(EXTERNAL_METRICS).filter((m) => new RegExp(`\\b${m}\\b`).test(rule.expr));
  const sources = external.map((m) => `${m} comes from ${EXTERNAL_METRICS[m]}.`).join(' ');
  return sources ? `${rule.description} ${sources}` : rule.description;
}

const runbookOf = (alert) => `${RUNBOOKS_URL}#${alert.toLowerCase()}`;

const LABELS = { 'app.kubernetes.io/part-of': 'irportal', 'app.kubernetes.io/component': 'monitoring' };

function prometheusRule(context) {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'irportal', labels: LABELS },
    spec: {
      groups: alertGroups(context).map(({ name, rules }) => ({
        name,
        rules: rules.map((rule) => ({
          alert: rule.alert,
          expr: rule.expr,
          for: rule.for,
          labels: { severity: rule.severity },
          annotations: {
            summary: rule.summary,
            description: withSources(rule),
            runbook_url: runbookOf(rule.alert),
          },
        })),
      })),
    },
  };
}

const serviceMonitor = (name, selector, port) => ({
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'ServiceMonitor',
  metadata: { name, labels: LABELS },
  spec: { selector, endpoints: [{ port, path: '/metrics', interval: SCRAPE_INTERVAL }] },
});

/** The scraper reaches the metrics ports (and nothing else) from its own namespace. */
const scrapePolicy = () => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'metrics-scrape', labels: LABELS },
  spec: {
    podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'irportal' } },
    policyTypes: ['Ingress'],
    ingress: [
      {
        from: [
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': MONITORING_NAMESPACE } } },
        ],
        ports: Object.values(METRICS_PORTS).map((port) => ({ protocol: 'TCP', port })),
      },
    ],
  },
});

/**
 * The component's files (name -> entries of { comment?, object }) for these manifest services;
 * `consumerGroupsOf(service)` is the platform's naming of a manifest service's consumer groups.
 */
export function monitoringParts(services, { consumerGroupsOf }) {
  const roles = services.flatMap((s) => s.roles.map((role) => ({ service: s.name, role })));
  const context = {
    consumerGroups: [...new Set(services.flatMap((s) => consumerGroupsOf(s)))],
    scrapedServices: [...roles.map(({ service, role }) => `${service}-${role}`), 'gateway-ops'],
  };
  const ours = { 'app.kubernetes.io/part-of': 'irportal' };
  return {
    'prometheus-rule.yaml': [
      {
        comment:
          ' The alerts; each runbook_url leads to its runbook in docs/operations.md ("Alerts and runbooks").\n' +
          " Your Prometheus's ruleSelector must select these labels (kube-prometheus-stack: ruleSelectorNilUsesHelmValues=false).",
        object: prometheusRule(context),
      },
    ],
    'service-monitors.yaml': [
      {
        comment: ` Every service role's Service: /metrics on its health port, every ${SCRAPE_INTERVAL}.`,
        object: serviceMonitor(
          'irportal-services',
          {
            matchLabels: ours,
            matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'NotIn', values: ['gateway'] }],
          },
          METRICS_PORTS.service,
        ),
      },
      {
        comment: " The gateway's operations port (Service gateway-ops; the public Service has no such port).",
        object: serviceMonitor(
          'gateway',
          { matchLabels: { ...ours, 'app.kubernetes.io/name': 'gateway' } },
          METRICS_PORTS.gateway,
        ),
      },
    ],
    'network-policy.yaml': [
      {
        comment: ` Prometheus (namespace ${MONITORING_NAMESPACE}) reaches the metrics ports past the default deny.`,
        object: scrapePolicy(),
      },
    ],
  };
}
