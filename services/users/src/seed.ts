import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createLogger, OutboxRelay, runMain } from '@irp/platform';
import { z } from 'zod';
import { usersService } from './app.module';
import { DEMO_USERS } from './demo-users';
import { UpsertUser, UserInput } from './users/upsert-user';

const log = createLogger('seed');

/** Extra users given to the seed as a JSON file (tests of other parts create their own users this way). */
const fixtureSchema = z.array(
  z.object({
    username: z.string().min(1),
    password: z.string().min(1),
    roles: z.array(z.string()).default([]),
    stockRoles: z.record(z.array(z.string())).default({}),
  }),
);

export function readUsersFixture(file: string): UserInput[] {
  const parsed = fixtureSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/**
 * Creates or updates the demo users and any extra users given (idempotent). The demo accounts' passwords
 * are published (README), so seeding needs an explicit SEED_DEMO_USERS=true (`make up` and the tests set
 * it), and is refused in production even then: nothing seeds real accounts.
 */
export async function seedDemoUsers(
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly UserInput[] = [],
): Promise<void> {
  if (usersService.loadConfig(env).NODE_ENV === 'production')
    throw new Error('Refusing to seed demo users when NODE_ENV=production');
  if (env.SEED_DEMO_USERS !== 'true')
    throw new Error(
      'Refusing to seed demo users (accounts with published passwords) without SEED_DEMO_USERS=true',
    );
  const app = await usersService.context(env);
  try {
    const users = app.get(UpsertUser);
    for (const u of [...DEMO_USERS, ...extra]) await users.upsert(u);
    // Publish the user.upserted events before exiting.
    const relay = app.get(OutboxRelay);
    while ((await relay.publishBatch()) > 0);
    log.info({ users: [...DEMO_USERS, ...extra].map((u) => u.username) }, 'demo users seeded');
  } finally {
    await app.close();
  }
}

/** `node dist/seed.js [--fixture=users.json]`: the fixture's users are upserted after the demo users. */
export function parseSeedArgs(argv: readonly string[]): { fixture?: string } {
  const flag = argv.find((a) => a.startsWith('--fixture='));
  return flag ? { fixture: flag.slice('--fixture='.length) } : {};
}

if (require.main === module)
  runMain(async () => {
    const { fixture } = parseSeedArgs(process.argv.slice(2));
    await seedDemoUsers(process.env, fixture ? readUsersFixture(fixture) : []);
    process.exit(0);
  });
