import type { NextFunction, Request, Response } from 'express';

/**
 * Nothing the API answers may be kept by a browser's cache or a proxy (a signed-in user's data on a shared
 * computer, a session user's roles): `Cache-Control: no-store` on every /api answer, errors included. A
 * route that may be cached says so itself, after this (a public announcement PDF's `public, max-age=300`).
 */
export function apiNoStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
