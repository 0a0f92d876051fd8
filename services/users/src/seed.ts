import 'reflect-metadata';
import { createLogger, OutboxRelay, runMain } from '@irp/platform';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadUsersConfig } from './config';
import { DEMO_USERS } from './demo-users';
import { UsersService } from './users/users.service';

const log = createLogger('seed');

/** Creates or updates the demo users (idempotent). Refused in production: nothing seeds real accounts. */
export async function seedDemoUsers(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadUsersConfig(env);
  if (config.NODE_ENV === 'production')
    throw new Error('Refusing to seed demo users when NODE_ENV=production');
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: false });
  try {
    const users = app.get(UsersService);
    for (const u of DEMO_USERS) await users.upsert(u);
    // Publish the user.upserted events before exiting.
    const relay = app.get(OutboxRelay);
    while ((await relay.publishBatch()) > 0);
    log.info({ users: DEMO_USERS.map((u) => u.username) }, 'demo users seeded');
  } finally {
    await app.close();
  }
}

if (require.main === module) runMain(() => seedDemoUsers().then(() => process.exit(0)));
