import 'reflect-metadata';
import { bootstrapService, kafkaSettingsOf, runMain } from '@irp/platform';
import { AppModule } from './app.module';
import { loadUsersConfig } from './config';

process.env.SERVICE_NAME ??= 'users';

export async function startUsersService(env: NodeJS.ProcessEnv = process.env) {
  const config = loadUsersConfig(env);
  return bootstrapService({
    module: AppModule.forRoot(config),
    kafka: kafkaSettingsOf(config, 'users'),
    healthPort: config.HEALTH_PORT,
    host: config.HOST,
  });
}

if (require.main === module) runMain(() => startUsersService());
