import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

const manifestEntrySchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/),
  workspace: z.string().min(1),
  package: z.string().min(1),
  healthPort: z.number().int().min(1).max(65535),
  schema: z.string().regex(/^[a-z_][a-z0-9_]*$/),
  roles: z
    .array(z.string().regex(/^[a-z][a-z0-9-]*$/))
    .min(1)
    .refine((roles) => roles.includes('api'), 'every service has the api role'),
  seed: z.string().optional(),
  /**
   * Topics a role consumes in consumer groups of their own, in the same processes (roles.ts RoleConsumers):
   * role -> consumer name -> topics (defineService refuses a topic the role does not handle).
   */
  consumers: z
    .record(z.string(), z.record(z.string().regex(/^[a-z][a-z0-9-]*$/), z.array(z.string().min(1)).min(1)))
    .optional(),
  /**
   * Ports a role serves beyond its health port (the bounce listener's SMTP): the stack moves each with the
   * health port offset, tests set its variable to 0, deploy/k8s.mjs gives it a container port and a Service.
   */
  listeners: z
    .array(
      z.object({
        role: z.string(),
        name: z.string().regex(/^[a-z][a-z0-9-]*$/),
        port: z.number().int().min(1024).max(65535),
        portEnv: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
      }),
    )
    .optional(),
  /** Local HTTP stand-ins of the vendors the service's adapters call (started by the stack). */
  standIns: z
    .array(
      z.object({
        name: z.string(),
        /** The workspace the stand-in lives in (standins): never the service's own production sources. */
        workspace: z.literal('standins'),
        script: z.string(),
        port: z.number().int(),
        portEnv: z.string(),
        urlEnv: z.array(z.string()),
        health: z.string(),
        /** Extra ports (env var -> offset from `port`), e.g. the SMTP port of the mail inbox. */
        ports: z.record(z.string(), z.number().int()).optional(),
        /** URL templates of some urlEnv variables ({url}, or an extra port's variable name). */
        urls: z.record(z.string(), z.string()).optional(),
        /** What `make up` prints about it ({url} replaced; one line, then indented lines). */
        hint: z.string().optional(),
      }),
    )
    .optional(),
});
export type ServiceManifestEntry = z.infer<typeof manifestEntrySchema>;

const manifestSchema = z.object({ services: z.array(manifestEntrySchema) });

/** The repository root: the nearest folder above `from` whose package.json declares workspaces. */
export function repoRoot(from = __dirname): string {
  let dir = from;
  while (dir !== dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).workspaces) return dir;
    dir = dirname(dir);
  }
  throw new Error('repository root not found');
}

/**
 * services/manifest.json, the one list of services. It sits two folders above this file both in src/ (ts-jest)
 * and in dist/ (node), so a deployed image needs only `services/manifest.json` beside the platform.
 */
export const MANIFEST_FILE = join(__dirname, '..', '..', 'manifest.json');

let cached: ServiceManifestEntry[] | undefined;

export function serviceManifest(file = MANIFEST_FILE): ServiceManifestEntry[] {
  if (file !== MANIFEST_FILE) return manifestSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).services;
  cached ??= manifestSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).services;
  return cached;
}

/** The manifest entry of one service; an unknown name is a programming error, so it throws. */
export function manifestEntry(name: string): ServiceManifestEntry {
  const entry = serviceManifest().find((s) => s.name === name);
  if (!entry) {
    throw new Error(
      `service "${name}" is not in ${MANIFEST_FILE} (known: ${serviceManifest()
        .map((s) => s.name)
        .join(', ')})`,
    );
  }
  return entry;
}
