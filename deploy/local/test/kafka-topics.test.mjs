// deploy/topics.json (every topic's partitions, retention and cleanup) against proto's catalogue, the topics
// that carry secrets, and which topics each process reads and writes (deploy/kafka-access.mjs, the
// KafkaUsers' ACLs), offline.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readManifest } from '../../generated.mjs';
import { gatewayAccess, serviceAccess, servicesAccess } from '../../kafka-access.mjs';
import { loadProto, renderedOverlay } from '../../k8s.mjs';
import {
  durationMs,
  plannedTopics,
  readTopicsFile,
  secretTopics,
  topicFileProblems,
} from '../../topic-settings.mjs';
import { topicPlan } from '../topics.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const proto = loadProto();
const catalogue = { names: proto.allTopics().map((t) => t.name), requestCatalogue: proto.RequestCatalogue };
const entries = readTopicsFile();

test('deploy/topics.json lists exactly the catalogue topics, each with valid settings', () => {
  assert.equal(Object.keys(entries).length, catalogue.names.length);
  assert.deepEqual(topicFileProblems(entries, catalogue), []);
});

test('the topics that carry a password or a token are found in proto, and keep it minutes', () => {
  const secret = secretTopics(proto.RequestCatalogue);
  for (const topic of ['users.authenticate', 'users.change-own-password', 'users.refresh', 'users.session'])
    for (const name of [topic, proto.replyTopic(topic), `${topic}.dlq`]) {
      assert.ok(secret.includes(name), name);
      assert.ok(durationMs(entries[name].retention) <= 15 * 60_000, `${name}: ${entries[name].retention}`);
    }
  // A boolean named so is no secret; events carry none.
  assert.ok(!secret.includes('users.get'));
  assert.ok(!secret.some((t) => proto.EventCatalogue[t.replace(/\.dlq$/, '')]));
});

test('a topic missing from the file, one not in proto, a secret kept days and bad settings are each refused', () => {
  const broken = structuredClone(entries);
  delete broken['stock.upserted.dlq'];
  broken['stock.deleted'] = { partitions: 6, retention: '7d', cleanup: 'delete' };
  broken['users.reply'].retention = '7d';
  broken['users.refresh.dlq'].retention = '1h';
  broken['users.list'] = { partitions: '6', retention: '1 hour', cleanup: 'remove', replicas: 3 };
  assert.deepEqual(topicFileProblems(broken, catalogue), [
    'stock.upserted.dlq: proto has it, deploy/topics.json does not (add "stock.upserted.dlq": { "partitions": …, "retention": …, "cleanup": "delete" })',
    "stock.deleted: in deploy/topics.json, not in proto's catalogue (remove it)",
    'users.list: unknown field replicas',
    'users.list: partitions "6" is not a whole number of at least 1',
    'users.list: retention "1 hour" is not a duration (e.g. 5m, 1h, 7d)',
    'users.list: cleanup "remove" is not one of delete, compact, compact,delete',
    'users.reply: carries a password or token, kept 7d (at most 15m)',
    'users.refresh.dlq: carries a password or token, kept 1h (at most 15m)',
  ]);
  assert.throws(
    () => plannedTopics(catalogue, broken),
    /deploy\/topics\.json:\n {2}stock\.upserted\.dlq: proto has it/,
  );
});

test('the local topics command and the Strimzi KafkaTopics plan the same partitions and configuration', async () => {
  const local = await topicPlan();
  const kafkaTopics = renderedOverlay('prod', readManifest(), proto).filter((o) => o.kind === 'KafkaTopic');
  assert.deepEqual(
    kafkaTopics.map((t) => ({ name: t.metadata.name, partitions: t.spec.partitions, config: t.spec.config })),
    local,
  );
  const auth = local.find((t) => t.name === 'users.authenticate');
  assert.deepEqual(auth.config, { 'retention.ms': '300000', 'cleanup.policy': 'delete' });
});

test('each service reads the topics its handlers take and writes their .dlq, its replies, events and requests', () => {
  const access = servicesAccess(ROOT, readManifest(), proto);
  const users = access.get('users');
  for (const t of ['users.authenticate', 'users.ping', 'stock.upserted', 'stocks.reply'])
    assert.ok(users.reads.has(t), `users reads ${t}`);
  for (const t of ['users.reply', 'users.authenticate.dlq', 'user.upserted', 'stocks.list'])
    assert.ok(users.writes.has(t), `users writes ${t}`);
  // A service writes its own reply topic only: never another service's replies.
  assert.deepEqual(
    [...users.writes].filter((t) => t.endsWith('.reply')),
    ['users.reply'],
  );
  assert.ok(!users.reads.has('comment.posted') && !users.writes.has('stock.upserted'));
  const sender = access.get('email-marketing');
  assert.ok(sender.reads.has('email.deliveries-queued') && sender.writes.has('email.deliveries-queued'));
  // Who was mailed is email-marketing's alone (docs/adr/0013): announcements no longer reads its deliveries,
  // and publishes the error email it needs as system-settings.saved, which email-marketing projects.
  const announcements = access.get('announcements');
  assert.ok(
    sender.writes.has('announcement.delivered') && !announcements.reads.has('announcement.delivered'),
  );
  assert.ok(announcements.writes.has('system-settings.saved') && announcements.writes.has('error.reported'));
  // Its send requests' topics are named by proto's sendRequestTopicOf, which it imports.
  for (const t of ['announcement.send-requested', 'announcement.priority-send-requested'])
    assert.ok(
      announcements.writes.has(t) && sender.reads.has(t),
      `announcements writes ${t}, the sender reads it`,
    );
  assert.ok(sender.reads.has('system-settings.saved'));
  const gateway = gatewayAccess(proto);
  assert.equal(gateway.writes.size, Object.keys(proto.RequestCatalogue).length);
  assert.deepEqual(
    [...gateway.reads].sort(),
    [...new Set(Object.values(proto.RequestCatalogue).map((spec) => `${spec.service}.reply`))].sort(),
  );
});

test("the access scan tells handled, requested and published topics apart, and follows the platform's and proto's helpers", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-access-'));
  try {
    const write = (file, text) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write(
      'services/platform/src/projection/projection.role.ts',
      `export function projectionRole() { return requester.request(Topics.StocksList, {}); }
       class Handlers { @HandleEvent(Topics.StockArchived) archived() {} }`,
    );
    write(
      'services/platform/src/unused.ts',
      'export const unused = () => outbox.add(tx, Topics.CommentPosted, k, {});',
    );
    write(
      'services/invoicing/src/things/things.handlers.ts',
      `import { projectionRole } from '@irp/platform';
       type E = EventOf<typeof Topics.CommentResponded>;
       class Things {
         @HandleEvent(Topics.StockUpserted) upserted(e: E) {}
         @HandleRequest(Topics.InvoicingDashboard) dashboard() {}
         async save() { await this.outbox.add(tx, Topics.MarketDataFailed, key, {}); }
       }`,
    );
    // proto's helpers: only the one imported counts, and only its own declaration (not the catalogue beside it).
    write(
      'proto/src/index.ts',
      `export const Topics = catalogue.Topics;
       export const pingOf = () => Topics.UsersPing;
       export function topicOf(a: { big: boolean }) { return a.big ? Topics.UserAccessChanged : Topics.ErrorReported; }`,
    );
    write(
      'services/invoicing/src/things/send.ts',
      `import { topicOf } from '@irp/proto';
       export const send = (a) => producer.send(topicOf(a), a);`,
    );
    write('services/invoicing/src/things/things.spec.ts', 'outbox.add(tx, Topics.UserUpserted, k, {});');
    const { reads, writes } = serviceAccess(root, 'invoicing', proto);
    const own = Object.keys(proto.RequestCatalogue).filter(
      (t) => proto.RequestCatalogue[t].service === 'invoicing',
    );
    assert.deepEqual([...reads].filter((t) => !own.includes(t)).sort(), [
      'stock.archived',
      'stock.upserted',
      'stocks.reply',
    ]);
    assert.deepEqual(
      [...writes].filter((t) => t !== 'invoicing.reply' && !own.some((o) => t === `${o}.dlq`)).sort(),
      [
        'error.reported',
        'market-data.failed',
        'stock.archived.dlq',
        'stock.upserted.dlq',
        'stocks.list',
        'user.access-changed',
      ],
    );
    write('services/invoicing/src/typo.ts', 'outbox.add(tx, Topics.StockUpsertd, k, {});');
    assert.throws(
      () => serviceAccess(root, 'invoicing', proto),
      /typo\.ts: Topics\.StockUpsertd is not in proto's catalogue/,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
