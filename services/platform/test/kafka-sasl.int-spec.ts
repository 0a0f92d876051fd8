import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  ITopicConfig,
  Kafka,
  ResourcePatternTypes,
} from 'kafkajs';
import { parseAllDocuments } from 'yaml';
import { baseConfigSchema, connectProducer, kafkaClientConfig, kafkaSettingsOf, loadConfig } from '../src';
import { repoRoot } from '../src/manifest';
import { patientDeadline, waitedFor } from '../src/testing/patience';
import { itWhen } from '../../../scripts/testing/skip-conditions';

jest.setTimeout(300_000);

// The broker jars this run's infrastructure fetched (deploy/local/infra.mjs under INFRA_DIR): a Docker
// broker has none, and then this test is skipped as needing the broker this run started.
const LIBS = resolve(repoRoot(), process.env.INFRA_DIR ?? '.local/test', 'kafka', 'libs');
const haveJars = existsSync(join(LIBS, '.complete'));

const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/**
 * A throw-away CA and the broker's certificate for 127.0.0.1 signed by it (openssl), as PEM files: the
 * broker reads its key and chain from `keystore.pem` and the clients trust `ca.pem`.
 */
function makeCertificates(dir: string): { caFile: string; keystore: string } {
  const run = (...args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
  };
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=irp-test-ca',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'broker.key',
    '-out',
    'broker.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  run(
    'x509',
    '-req',
    '-in',
    'broker.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'broker.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  run('pkcs8', '-topk8', '-nocrypt', '-in', 'broker.key', '-out', 'broker.p8');
  const keystore = join(dir, 'keystore.pem');
  writeFileSync(
    keystore,
    readFileSync(join(dir, 'broker.p8'), 'utf8') + readFileSync(join(dir, 'broker.pem'), 'utf8'),
  );
  return { caFile: join(dir, 'ca.pem'), keystore };
}

/**
 * A second, throw-away KRaft broker whose client listeners are SASL_PLAINTEXT and SASL_SSL (TLS with the
 * certificate of makeCertificates), both SCRAM-SHA-512, the credentials created when its storage is
 * formatted (`--add-scram`): the broker's own, the portal's and the stocks service's. Kafka's standard
 * authorizer is on, as on the Strimzi cluster (`authorization: simple`): a principal may do only what an ACL
 * allows; the broker (and the controller listener's anonymous peer) are super users.
 */
async function startScramBroker(dir: string) {
  const [port, tlsPort, controllerPort] = [await freePort(), await freePort(), await freePort()];
  const { caFile, keystore } = makeCertificates(dir);
  const jaas =
    'org.apache.kafka.common.security.scram.ScramLoginModule required username="broker" password="broker-secret";';
  const props = join(dir, 'server.properties');
  mkdirSync(join(dir, 'data'));
  writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=SASL_PLAINTEXT://127.0.0.1:${port},SASL_SSL://127.0.0.1:${tlsPort},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=SASL_PLAINTEXT://127.0.0.1:${port},SASL_SSL://127.0.0.1:${tlsPort}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=SASL_PLAINTEXT',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL',
      'sasl.enabled.mechanisms=SCRAM-SHA-512',
      'sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512',
      `listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=${jaas}`,
      `listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=${jaas}`,
      'ssl.keystore.type=PEM',
      `ssl.keystore.location=${keystore}`,
      `log.dirs=${join(dir, 'data')}`,
      'num.partitions=1',
      'auto.create.topics.enable=false',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      'super.users=User:broker;User:ANONYMOUS',
      'allow.everyone.if.no.acl.found=false',
    ].join('\n') + '\n',
  );
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const jvm = [
    '-Xms128m',
    '-Xmx256m',
    `-Dlog4j.configuration=${pathToFileURL(join(repoRoot(), 'deploy', 'local', 'kafka', 'log4j.properties')).href}`,
    `-Dkafka.logs.dir=${join(dir, 'logs')}`,
    '-cp',
    `${LIBS}/*`,
  ];
  const format = spawnSync(
    java,
    [
      ...jvm,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      'c2NyYW0tdGVzdC1jbHVzdA',
      '-c',
      props,
      '--add-scram',
      'SCRAM-SHA-512=[name=broker,password=broker-secret]',
      '--add-scram',
      'SCRAM-SHA-512=[name=irportal,password=right-password]',
      '--add-scram',
      'SCRAM-SHA-512=[name=stocks,password=stocks-secret]',
    ],
    { encoding: 'utf8' },
  );
  if (format.status !== 0) throw new Error(`storage format failed: ${format.stdout}${format.stderr}`);
  // Its output in a file: what a broker that exits early said is the error's tail.
  const out = openSync(join(dir, 'broker.out'), 'w');
  const broker = spawn(java, [...jvm, 'kafka.Kafka', props], { stdio: ['ignore', out, out] });
  closeSync(out);
  return { broker, brokers: `127.0.0.1:${port}`, tlsBrokers: `127.0.0.1:${tlsPort}`, caFile };
}

interface StrimziAcl {
  resource: { type: 'topic' | 'group'; name: string; patternType: 'literal' | 'prefix' };
  operations: string[];
}

/** The ACLs of a process's KafkaUser as the prod overlay deploys them (deploy/k8s/components/strimzi/). */
function kafkaUserAcls(name: string): StrimziAcl[] {
  const file = join(repoRoot(), 'deploy', 'k8s', 'components', 'strimzi', 'users.yaml');
  const user = parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS())
    .find((o) => o?.kind === 'KafkaUser' && o.metadata.name === name);
  if (!user) throw new Error(`no KafkaUser ${name} in ${file}`);
  return user.spec.authorization.acls;
}

/** Strimzi's ACLs for `principal` as Kafka's admin API takes them (what the User Operator creates). */
const kafkaAcls = (principal: string, acls: StrimziAcl[]) =>
  acls.flatMap(({ resource, operations }) =>
    operations.map((operation) => ({
      resourceType: resource.type === 'topic' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
      resourceName: resource.name,
      resourcePatternType:
        resource.patternType === 'prefix' ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
      principal,
      host: '*',
      // Read -> READ, DescribeConfigs -> DESCRIBE_CONFIGS
      operation:
        AclOperationTypes[
          operation.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() as keyof typeof AclOperationTypes
        ],
      permissionType: AclPermissionTypes.ALLOW,
    })),
  );

/** What a process with this environment makes of the broker: the platform's config and client settings. */
const settingsFor = (env: Record<string, string>) =>
  kafkaSettingsOf(loadConfig(baseConfigSchema, env), 'sasl-test');

async function listTopicsWith(env: Record<string, string>): Promise<string[]> {
  const admin = new Kafka({ ...kafkaClientConfig(settingsFor(env)), retry: { retries: 0 } }).admin();
  try {
    await admin.connect();
    return await admin.listTopics();
  } finally {
    await admin.disconnect();
  }
}

/** A connection that did not open in time (a loaded machine, a JVM's first TLS handshake): worth another try. */
const notYetOpen = (err: unknown) => /Connection timeout|ECONNREFUSED|ECONNRESET/i.test(String(err));

/**
 * The topics these settings list once the listener answers: tries again while `retryOn` says the error is
 * passing (by default a connection that did not open: the first TLS handshakes of a JVM are slow on a busy
 * machine), until the test's patience runs out; any other answer (a refused password or certificate) is thrown
 * at once. Throws BrokerExited when the broker exited first.
 */
async function listTopicsOnceOpen(
  broker: ChildProcess,
  env: Record<string, string>,
  retryOn: (err: unknown) => boolean = notYetOpen,
): Promise<string[]> {
  const started = Date.now();
  const deadline = patientDeadline(90_000);
  for (;;) {
    try {
      return await listTopicsWith(env);
    } catch (err) {
      if (broker.exitCode !== null) throw new BrokerExited(broker.exitCode);
      if (!retryOn(err)) throw err;
      if (Date.now() > deadline)
        throw new Error(`the SCRAM broker's listener did not open ${waitedFor(started)}: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

class BrokerExited extends Error {
  constructor(readonly exitCode: number) {
    super(`the SCRAM broker exited ${exitCode}`);
  }
}

/**
 * Until the portal's credentials list the broker's topics (the JVM takes a few seconds; whatever a starting
 * broker answers is tried again): undefined when ready, the exit code when the broker exited first.
 */
async function untilScramBrokerReady(
  broker: ChildProcess,
  env: Record<string, string>,
): Promise<number | undefined> {
  try {
    await listTopicsOnceOpen(broker, env, () => true);
    return undefined;
  } catch (err) {
    if (err instanceof BrokerExited) return err.exitCode;
    throw err;
  }
}

describe('Kafka with SASL/SCRAM-SHA-512 from config', () => {
  let dir: string;
  let broker: ChildProcess | undefined;
  let env: Record<string, string>;
  let tlsEnv: Record<string, string>;

  beforeAll(async () => {
    if (!haveJars) return;
    dir = mkdtempSync(join(tmpdir(), 'irp-scram-'));
    // Three tries, each on new free ports: a port found free can be taken (by an outgoing connection's
    // source port, on a busy machine) before the JVM binds it, and then the broker exits 1 at start.
    for (let attempt = 1; ; attempt++) {
      const attemptDir = join(dir, `attempt-${attempt}`);
      mkdirSync(attemptDir);
      const started = await startScramBroker(attemptDir);
      broker = started.broker;
      env = {
        KAFKA_BROKERS: started.brokers,
        KAFKA_SASL_USERNAME: 'irportal',
        KAFKA_SASL_PASSWORD: 'right-password',
      };
      tlsEnv = {
        ...env,
        KAFKA_BROKERS: started.tlsBrokers,
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: started.caFile,
      };
      const exitCode = await untilScramBrokerReady(broker, env);
      if (exitCode === undefined) return;
      const said = readFileSync(join(attemptDir, 'broker.out'), 'utf8').split('\n').slice(-15).join('\n');
      if (attempt === 3) throw new Error(`the SCRAM broker exited ${exitCode} three times; last:\n${said}`);
      console.warn(
        `the SCRAM broker exited ${exitCode} at start (try ${attempt}), trying new ports:\n${said}`,
      );
    }
  });

  afterAll(async () => {
    if (broker && broker.exitCode === null) {
      const exited = new Promise((r) => broker!.once('exit', r));
      broker.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  itWhen('ownBroker', haveJars)(
    "connects with the configured credentials (the services' producer and an admin client) and is refused with wrong ones",
    async () => {
      await expect(listTopicsWith(env)).resolves.toEqual([]);
      const producer = await connectProducer(settingsFor(env));
      await producer.disconnect();

      await expect(listTopicsWith({ ...env, KAFKA_SASL_PASSWORD: 'wrong-password' })).rejects.toThrow(
        /SASL SCRAM SHA512 authentication failed/,
      );
      await expect(
        connectProducer(settingsFor({ ...env, KAFKA_SASL_PASSWORD: 'wrong-password' })),
      ).rejects.toThrow(/authentication failed/);
    },
  );

  itWhen('ownBroker', haveJars)(
    'over TLS (KAFKA_SSL, KAFKA_SSL_CA_FILE): connects trusting the configured CA, and not without it',
    async () => {
      await expect(listTopicsOnceOpen(broker!, tlsEnv)).resolves.toEqual([]);
      const producer = await connectProducer(settingsFor(tlsEnv));
      await producer.disconnect();
      // The system's CAs do not know the test CA: the broker's certificate is refused.
      const systemCas = Object.fromEntries(Object.entries(tlsEnv).filter(([k]) => k !== 'KAFKA_SSL_CA_FILE'));
      await expect(listTopicsOnceOpen(broker!, systemCas)).rejects.toThrow(
        /self[- ]signed|unable to (get|verify)|certificate/i,
      );
    },
  );

  itWhen('ownBroker', haveJars)(
    "a service's principal may do what its KafkaUser's ACLs allow and nothing else: stocks writes its events and reads in its group, not another service's requests nor in another's group",
    async () => {
      const admin = new Kafka({
        ...kafkaClientConfig(
          settingsFor({ ...env, KAFKA_SASL_USERNAME: 'broker', KAFKA_SASL_PASSWORD: 'broker-secret' }),
        ),
      }).admin();
      const topics: ITopicConfig[] = ['stock.upserted', 'users.authenticate', 'stocks.list'].map((topic) => ({
        topic,
        numPartitions: 1,
      }));
      await admin.connect();
      try {
        await admin.createTopics({ topics, waitForLeaders: true });
        const acls = kafkaUserAcls('stocks');
        expect(acls.some((a) => a.resource.name === 'stock.upserted')).toBe(true);
        expect(acls.some((a) => a.resource.name === 'users.authenticate')).toBe(false);
        expect(acls.some((a) => a.resource.name === 'stocks.list' && a.operations.includes('Read'))).toBe(
          true,
        );
        await admin.createAcls({ acl: kafkaAcls('User:stocks', acls) });
      } finally {
        await admin.disconnect();
      }

      const stocks = { ...env, KAFKA_SASL_USERNAME: 'stocks', KAFKA_SASL_PASSWORD: 'stocks-secret' };
      const producer = await connectProducer(settingsFor(stocks));
      try {
        // Allowed once the broker has applied the ACLs (moments after they were created).
        const started = Date.now();
        const deadline = patientDeadline(60_000);
        for (;;) {
          try {
            await producer.send({ topic: 'stock.upserted', messages: [{ key: 's1', value: '{}' }] });
            break;
          } catch (err) {
            if (!/Not authorized/.test(String(err)) || Date.now() > deadline)
              throw new Error(`stocks never wrote stock.upserted ${waitedFor(started)}: ${String(err)}`);
            await new Promise((r) => setTimeout(r, 200));
          }
        }
        await expect(
          producer.send({ topic: 'users.authenticate', messages: [{ key: 'u1', value: '{}' }] }),
        ).rejects.toThrow(/Not authorized to access topics/);
      } finally {
        await producer.disconnect();
      }

      // Reading: in its own group (stocks) it joins and is assigned a topic it consumes; in another service's
      // group (users) the broker refuses it (kafkajs reports that refusal as "Failed to find group
      // coordinator", its log says "Not authorized to access group"), the same consumer otherwise.
      const joinAs = async (groupId: string) => {
        const consumer = new Kafka(kafkaClientConfig(settingsFor(stocks))).consumer({
          groupId,
          retry: { retries: 0 },
        });
        try {
          const outcome = new Promise<string>((done) => {
            consumer.on(consumer.events.GROUP_JOIN, (e) =>
              done(`joined: ${Object.keys(e.payload.memberAssignment).join(',')}`),
            );
            consumer.on(consumer.events.CRASH, (e) => done(`crashed: ${String(e.payload.error)}`));
          });
          await consumer.connect();
          await consumer.subscribe({ topics: ['stocks.list'] });
          await consumer.run({ eachMessage: async () => {} });
          return await outcome;
        } finally {
          await consumer.disconnect();
        }
      };
      // A fresh broker's group coordinator may still be loading its partition of __consumer_offsets: a
      // retriable answer that this consumer (no retries, so a refusal shows at once) reports as a crash. Ask
      // again until the coordinator answers for real (seen on a loaded machine, fresh clones' runs: "loading",
      // then "not the correct coordinator for this group").
      const joinedAs = async (groupId: string) => {
        for (;;) {
          const outcome = await joinAs(groupId);
          // Retriable coordinator answers only (loading, not available, moved: NOT_COORDINATOR); an
          // authorization refusal ("Failed to find group coordinator", "Not authorized") is the outcome.
          if (
            !/coordinator is loading|coordinator is not available|not the correct coordinator/i.test(outcome)
          )
            return outcome;
        }
      };
      await expect(joinedAs('stocks')).resolves.toBe('joined: stocks.list');
      await expect(joinedAs('users')).resolves.toMatch(/^crashed: .*(group coordinator|Not authorized)/);
    },
  );

  it('refuses a username without a password at start', () => {
    expect(() => settingsFor({ KAFKA_BROKERS: '127.0.0.1:1', KAFKA_SASL_USERNAME: 'irportal' })).toThrow(
      'KAFKA_SASL_PASSWORD: required with KAFKA_SASL_USERNAME',
    );
  });
});
