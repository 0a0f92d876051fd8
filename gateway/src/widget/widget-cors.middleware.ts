import type { NextFunction, Request, Response } from 'express';

/**
 * The widget API is called from client websites' pages: any origin may read its answers (errors
 * included, so a page can show why), without credentials, and the preflight of a request carrying the
 * X-Api-Key header is answered here. Helmet's same-origin resource policy is lifted for these routes only.
 */
export function widgetCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'X-Api-Key, Content-Type');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.status(204).end();
    return;
  }
  next();
}
