import 'reflect-metadata';
import { bootstrapService, kafkaSettingsOf, runMain } from '@irp/platform';
import { AppModule } from './app.module';
import { loadStocksConfig } from './config';

process.env.SERVICE_NAME ??= 'stocks';

export async function startStocksService(env: NodeJS.ProcessEnv = process.env) {
  const config = loadStocksConfig(env);
  return bootstrapService({
    module: AppModule.forRoot(config),
    kafka: kafkaSettingsOf(config, 'stocks'),
    healthPort: config.HEALTH_PORT,
    host: config.HOST,
  });
}

if (require.main === module) runMain(() => startStocksService());
