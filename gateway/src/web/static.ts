import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { NextFunction, Request, Response } from 'express';

const API_PATHS = /^\/(api|health|metrics)(\/|$)/;

/**
 * Serves the built web app: hashed assets cached for a year, and index.html (never cached) for every other
 * GET that is not an API path, so client-side routes survive a reload.
 */
export function webApp(dist: string) {
  const root = resolve(dist);
  const index = join(root, 'index.html');
  if (!existsSync(index)) throw new Error(`WEB_DIST ${root} has no index.html: run \`npm run build -w web\``);
  const assets = express.static(root, {
    index: false,
    setHeaders: (res, path) => {
      res.setHeader(
        'Cache-Control',
        path.includes(`${join(root, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || API_PATHS.test(req.path)) return next();
    assets(req, res, () => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    });
  };
}
