// docker-compose.yml (deploy/compose.mjs) against the Compose Specification's JSON schema, vendored in
// deploy/schemas/ (its README says from where): what `docker compose` would refuse fails `make test` (the
// infra suite) without a Docker engine. Broken copies prove the schema refuses what it should.
//   node --test 'deploy/local/test/*.test.mjs'
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import YAML from 'yaml';
import { COMPOSE_FILE, composeFile } from '../../compose.mjs';
import { readManifest, ROOT } from '../../generated.mjs';

const require = createRequire(import.meta.url);
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy', 'schemas', 'compose-spec.json'), 'utf8'));

// The schema names the draft-07 meta-schema by its https address; ajv knows it by the http one.
const ajv = new Ajv({ allErrors: true, strictTypes: false });
ajv.addMetaSchema({ ...require('ajv/dist/refs/json-schema-draft-07.json'), $id: schema.$schema });
const validate = ajv.compile(schema);

/** A compose file's text as Compose reads it: YAML with merge keys (`<<: *node-env`). */
const parse = (text) => YAML.parse(text, { merge: true });

/** The schema's complaints about a compose document, as `<where> <what>` lines (none: valid). */
function composeProblems(doc) {
  if (validate(doc)) return [];
  return validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
}

test('the committed docker-compose.yml is valid against the Compose Specification', () => {
  assert.deepEqual(composeProblems(parse(fs.readFileSync(COMPOSE_FILE, 'utf8'))), []);
});

test('what deploy/compose.mjs gives for a manifest with another service is valid too', () => {
  const services = [
    ...readManifest(),
    {
      name: 'example',
      workspace: 'services/example',
      package: '@irp/example',
      healthPort: 3199,
      schema: 'example',
      roles: ['api', 'poller'],
    },
  ];
  const doc = parse(composeFile(services));
  assert.ok(doc.services.example, 'the example service is there');
  assert.deepEqual(composeProblems(doc), []);
});

/** The committed file with `change` applied to its parsed document. */
function brokenCopy(change) {
  const doc = parse(fs.readFileSync(COMPOSE_FILE, 'utf8'));
  change(doc);
  return composeProblems(doc);
}

test('a service whose ports is a string is refused, where it is', () => {
  const problems = brokenCopy((doc) => (doc.services.gateway.ports = 'x'));
  assert.ok(problems.includes('/services/gateway/ports must be array'), problems.join('\n'));
  assert.ok(
    problems.every((p) => p.startsWith('/services/gateway/ports')),
    problems.join('\n'),
  );
});

test('an unknown top-level key, and an unknown key of a service, are refused', () => {
  assert.deepEqual(
    brokenCopy((doc) => (doc.service = {})),
    ['/ must NOT have additional properties'],
  );
  assert.deepEqual(
    brokenCopy((doc) => (doc.services.kafka.restart_policy = 'always')),
    ['/services/kafka must NOT have additional properties'],
  );
});

test('a healthcheck with a number where a duration string goes is refused', () => {
  const problems = brokenCopy((doc) => (doc.services.postgres.healthcheck.interval = 5));
  assert.ok(problems.includes('/services/postgres/healthcheck/interval must be string'), problems.join('\n'));
});
