import 'reflect-metadata';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { SESSION_COOKIE } from '@irp/proto';
import { createLogger, initMetrics, PinoNestLogger, repoRoot, runMain } from '@irp/platform';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { useBodyLimits } from './common/body-limits';
import { answerClientErrors } from './common/client-error';
import { requestContext } from './common/request-context.middleware';
import { loadGatewayConfig } from './config';
import { OpsListener, opsOnly } from './health/ops-listener';
import { DOCUMENT_OPTIONS, SECURITY } from './routing/route';
import { unboundHandlers } from './routing/unbound-handlers';
import { webApp } from './web/static';
import { apiNoStore } from './common/api-no-store';

process.env.SERVICE_NAME ??= 'gateway';
/** Longer than the idle timeout of the clients and load balancers in front of the gateway (60 s is common). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const log = createLogger('gateway');

export async function createGateway(env: NodeJS.ProcessEnv = process.env): Promise<NestExpressApplication> {
  const started = Date.now();
  const config = loadGatewayConfig(env);
  initMetrics('gateway');
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: new PinoNestLogger(),
    abortOnError: false,
    // useBodyLimits below installs the parsers, with the configured limit.
    bodyParser: false,
  });
  const unbound = unboundHandlers(app);
  if (unbound.length) {
    await app.close();
    throw new Error(
      `Handlers without a route table entry (bind each with @Route(routes.<group>.<name>)): ${unbound.join(', ')}`,
    );
  }
  app.enableShutdownHooks();
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestContext);
  app.use(opsOnly(app.get(OpsListener)));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: { upgradeInsecureRequests: config.cookieSecure ? [] : null },
      },
      hsts: config.cookieSecure,
    }),
  );
  app.use(cookieParser());
  app.use('/api', apiNoStore);
  useBodyLimits(app, config);

  const docs = new DocumentBuilder()
    .setTitle('IR Portal API')
    .setDescription(
      'The REST contract of the portal (spec section 7). Sign in with GET /api/login (Basic auth); state-changing calls need the X-XSRF-TOKEN header.',
    )
    .setVersion('1')
    .addBasicAuth(undefined, SECURITY.basic)
    .addCookieAuth(SESSION_COOKIE, undefined, SECURITY.session)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, SECURITY.widgetKey)
    .build();
  if (config.apiDocs)
    SwaggerModule.setup('api/docs', app, () => SwaggerModule.createDocument(app, docs, DOCUMENT_OPTIONS), {
      jsonDocumentUrl: 'api/docs-json',
    });

  const dist =
    config.WEB_DIST ?? (config.NODE_ENV === 'production' ? join(repoRoot(), 'web', 'dist') : undefined);
  if (dist) app.use(webApp(dist));

  await app.listen(config.PORT, config.HOST);
  // Idle keep-alive connections are closed by the server later than any client or proxy in front of it
  // closes them (Node's default is 5 s): else a client reusing one as the server closes it gets ECONNRESET.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  answerClientErrors(server);
  log.info(
    {
      port: (app.getHttpServer().address() as { port: number }).port,
      web: dist ?? null,
      ms: Date.now() - started,
    },
    'gateway started',
  );
  return app;
}

if (require.main === module) runMain(() => createGateway());
