import { createServer, Server } from 'node:http';
import type { Socket } from 'node:net';
import { routes } from '@irp/proto';
import { createLogger } from '@irp/platform';
import {
  Inject,
  Injectable,
  NotFoundException,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { errorBodyOf } from '../common/http-exception.filter';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';

const log = createLogger('gateway');

/** What only the operations listener serves: the services' health and the metrics (not /health/live). */
export const OPS_PATHS: readonly string[] = [routes.gateway.health.path, routes.gateway.metrics.path];

type OpsConfig = Pick<GatewayConfig, 'OPS_PORT' | 'OPS_HOST'>;

/**
 * With OPS_PORT set, a second listener on OPS_HOST:OPS_PORT (an address the monitors reach and the public
 * does not) serves the same application, and the detailed /health and /metrics answer only there: on the
 * public port they are 404, as if they did not exist. /health/live stays public, for load balancers.
 * The routes stay the route table's (one router, two listeners).
 */
@Injectable()
export class OpsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;
  private readonly sockets = new WeakSet<Socket>();

  constructor(
    private readonly adapter: HttpAdapterHost,
    @Inject(GATEWAY_CONFIG) private readonly config: OpsConfig,
  ) {}

  get enabled(): boolean {
    return this.config.OPS_PORT !== undefined;
  }

  /** The port it listens on (the one given, or the one picked for 0). */
  get port(): number | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  isOps(req: Request): boolean {
    return this.sockets.has(req.socket);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    const server = createServer(this.adapter.httpAdapter.getInstance());
    server.on('connection', (socket) => this.sockets.add(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.OPS_PORT, this.config.OPS_HOST, () => resolve());
    });
    this.server = server;
    log.info({ port: this.port, host: this.config.OPS_HOST }, 'operations listener (/health, /metrics)');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * On the public listener, the operations paths answer 404 once OPS_PORT is set (an Express middleware ahead
 * of the router, so the router's routes stay the table's).
 */
export function opsOnly(ops: OpsListener) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!ops.enabled || ops.isOps(req) || !OPS_PATHS.includes(req.path.replace(/\/+$/, ''))) return next();
    const body = errorBodyOf(new NotFoundException(`Cannot ${req.method} ${req.path}`));
    res.status(body.statusCode).json(body);
  };
}
