// The topics command on a cluster's broker (the Kubernetes topics Job): SASL and TLS from the variables the
// services read, refused when they cannot work. Nothing here connects to a broker.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { kafkaSecurityFromEnv } from '../kafka.mjs';

test('no variables: plain, as the local broker is', () => {
  assert.deepEqual(kafkaSecurityFromEnv({}), {});
});

test('a SASL user and password: SCRAM-SHA-512; KAFKA_SSL=true adds TLS, with the CA file when given', () => {
  const sasl = { KAFKA_SASL_USERNAME: 'topics', KAFKA_SASL_PASSWORD: 'pw' };
  assert.deepEqual(kafkaSecurityFromEnv(sasl), {
    sasl: { mechanism: 'scram-sha-512', username: 'topics', password: 'pw' },
  });
  assert.equal(kafkaSecurityFromEnv({ ...sasl, KAFKA_SSL: 'true' }).ssl, true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'irp-ca-'));
  try {
    const ca = path.join(dir, 'ca.pem');
    fs.writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    assert.deepEqual(kafkaSecurityFromEnv({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca }).ssl, {
      ca: ['-----BEGIN CERTIFICATE-----\n'],
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('half a SASL pair, or a CA file without TLS, is refused', () => {
  assert.throws(
    () => kafkaSecurityFromEnv({ KAFKA_SASL_USERNAME: 'topics' }),
    /KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: set both/,
  );
  assert.throws(() => kafkaSecurityFromEnv({ KAFKA_SASL_PASSWORD: 'pw' }), /set both/);
  assert.throws(() => kafkaSecurityFromEnv({ KAFKA_SSL_CA_FILE: '/ca.pem' }), /KAFKA_SSL is not true/);
});
