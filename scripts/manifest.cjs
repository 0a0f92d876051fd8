// Reads and checks services/manifest.json. CommonJS so the jest configs can require it; the .mjs scripts
// use it through scripts/manifest.mjs.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MANIFEST_FILE = path.join(ROOT, 'services', 'manifest.json');
const NAME = /^[a-z][a-z0-9-]{1,30}$/;
const ROLE = /^[a-z][a-z0-9-]{1,30}$/;
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;
/** The one workspace of the vendor stand-ins (standins/README.md): built for `make up` and tests, never shipped. */
const STANDINS_WORKSPACE = 'standins';

/** Every problem of a manifest, as sentences naming the entry and field. */
function manifestProblems(manifest) {
  const problems = [];
  if (!manifest || !Array.isArray(manifest.services)) return ['"services" must be a list'];
  const seen = { name: new Set(), healthPort: new Set(), schema: new Set(), workspace: new Set() };
  manifest.services.forEach((s, i) => {
    const at = `services[${i}]${s && s.name ? ` (${s.name})` : ''}`;
    if (!s || typeof s !== 'object') return problems.push(`${at} must be an object`);
    if (!NAME.test(s.name ?? '')) problems.push(`${at}.name must match ${NAME}`);
    if (s.workspace !== `services/${s.name}`) problems.push(`${at}.workspace must be services/${s.name}`);
    if (s.package !== `@irp/${s.name}`) problems.push(`${at}.package must be @irp/${s.name}`);
    if (!Number.isInteger(s.healthPort) || s.healthPort < 1024 || s.healthPort > 65535)
      problems.push(`${at}.healthPort must be a port number from 1024 to 65535`);
    if (!SCHEMA.test(s.schema ?? '')) problems.push(`${at}.schema must be a PostgreSQL schema name`);
    if (!Array.isArray(s.roles) || !s.roles.includes('api') || s.roles.some((r) => !ROLE.test(r)))
      problems.push(`${at}.roles must be a list of role names including "api"`);
    else if (new Set(s.roles).size !== s.roles.length) problems.push(`${at}.roles has a role twice`);
    if (s.seed !== undefined && (typeof s.seed !== 'string' || !s.seed.startsWith('dist/')))
      problems.push(`${at}.seed must be a path under the service's dist/`);
    // Topics a role consumes in consumer groups of its own (services/platform/src/roles.ts RoleConsumers).
    if (s.consumers !== undefined) {
      const roles = Array.isArray(s.roles) ? s.roles : [];
      const isMap = (v) => v && typeof v === 'object' && !Array.isArray(v);
      if (!isMap(s.consumers)) problems.push(`${at}.consumers must map roles to their own consumers`);
      else
        for (const [role, consumers] of Object.entries(s.consumers)) {
          const where = `${at}.consumers.${role}`;
          if (!roles.includes(role)) problems.push(`${where}: ${role} is not one of the service's roles`);
          if (!isMap(consumers)) problems.push(`${where} must map consumer names to lists of topics`);
          else
            for (const [name, topics] of Object.entries(consumers)) {
              if (!ROLE.test(name)) problems.push(`${where}.${name}: a consumer name must match ${ROLE}`);
              if (!Array.isArray(topics) || !topics.length || topics.some((t) => typeof t !== 'string' || !t))
                problems.push(`${where}.${name} must be a list of topic names`);
            }
        }
    }
    // Ports a role serves beyond its health port (the stack offsets them; tests set them to 0).
    if (s.listeners !== undefined) {
      if (!Array.isArray(s.listeners)) problems.push(`${at}.listeners must be a list`);
      else
        s.listeners.forEach((x, j) => {
          const where = `${at}.listeners[${j}]`;
          if (!(Array.isArray(s.roles) && s.roles.includes(x?.role)))
            problems.push(`${where}.role must be one of the service's roles`);
          if (!ROLE.test(x?.name ?? '')) problems.push(`${where}.name must match ${ROLE}`);
          if (!Number.isInteger(x?.port) || x.port < 1024 || x.port > 65535)
            problems.push(`${where}.port must be a port number from 1024 to 65535`);
          if (typeof x?.portEnv !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(x.portEnv))
            problems.push(`${where}.portEnv must be an environment variable name`);
        });
    }
    if (s.standIns !== undefined) {
      if (!Array.isArray(s.standIns)) problems.push(`${at}.standIns must be a list`);
      else
        s.standIns.forEach((x, j) => {
          const where = `${at}.standIns[${j}]`;
          if (!NAME.test(x?.name ?? '')) problems.push(`${where}.name must match ${NAME}`);
          if (x?.workspace !== STANDINS_WORKSPACE)
            problems.push(
              `${where}.workspace must be ${STANDINS_WORKSPACE} (no stand-in in a service's sources)`,
            );
          if (typeof x?.script !== 'string' || !x.script.startsWith('dist/'))
            problems.push(`${where}.script must be a path under the stand-ins' dist/`);
          if (!Number.isInteger(x?.port) || x.port < 1024 || x.port > 65535)
            problems.push(`${where}.port must be a port number from 1024 to 65535`);
          if (typeof x?.portEnv !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(x.portEnv))
            problems.push(`${where}.portEnv must be an environment variable name`);
          if (
            !Array.isArray(x?.urlEnv) ||
            !x.urlEnv.length ||
            x.urlEnv.some((v) => !/^[A-Z][A-Z0-9_]*$/.test(v))
          )
            problems.push(`${where}.urlEnv must be a list of environment variable names`);
          if (typeof x?.health !== 'string' || !x.health.startsWith('/'))
            problems.push(`${where}.health must be a path starting with /`);
          if (
            x?.ports !== undefined &&
            (typeof x.ports !== 'object' ||
              Object.entries(x.ports).some(
                ([k, v]) => !/^[A-Z][A-Z0-9_]*$/.test(k) || !Number.isInteger(v) || v < 1 || v > 20,
              ))
          )
            problems.push(`${where}.ports must map environment variable names to offsets from 1 to 20`);
          if (
            x?.urls !== undefined &&
            (typeof x.urls !== 'object' ||
              Object.entries(x.urls).some(([k, v]) => !x.urlEnv?.includes(k) || typeof v !== 'string'))
          )
            problems.push(`${where}.urls must map some of its urlEnv names to URL templates`);
          if (x?.hint !== undefined && typeof x.hint !== 'string')
            problems.push(`${where}.hint must be text`);
        });
    }
    for (const key of Object.keys(seen)) {
      if (s[key] === undefined) continue;
      if (seen[key].has(s[key])) problems.push(`${at}.${key} ${s[key]} is used by another service`);
      seen[key].add(s[key]);
    }
  });
  return problems;
}

/** The manifest, checked; throws with every problem listed. */
function loadManifest(file = MANIFEST_FILE) {
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  const problems = manifestProblems(manifest);
  if (problems.length)
    throw new Error(`${path.relative(ROOT, file)} is not valid:\n  ${problems.join('\n  ')}`);
  return manifest;
}

/**
 * The server workspaces in build order: proto, the platform, every service, the stand-ins (when any service
 * declares one; `{ standIns: false }` for a production image, which carries none), the gateway.
 */
function serverWorkspaces(manifest = loadManifest(), { standIns = true } = {}) {
  const withStandIns = standIns && manifest.services.some((s) => (s.standIns ?? []).length > 0);
  return [
    'proto',
    'services/platform',
    ...manifest.services.map((s) => s.workspace),
    ...(withStandIns ? [STANDINS_WORKSPACE] : []),
    'gateway',
  ];
}

module.exports = {
  ROOT,
  MANIFEST_FILE,
  STANDINS_WORKSPACE,
  loadManifest,
  manifestProblems,
  serverWorkspaces,
};
