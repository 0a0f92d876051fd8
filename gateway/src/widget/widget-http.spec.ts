import express from 'express';
import request from 'supertest';
import { apiKeyOf } from './widget-key.guard';
import { widgetCors } from './widget-cors.middleware';

describe('widget API key', () => {
  const req = (query: Record<string, unknown>, headers: Record<string, string> = {}) => ({
    query,
    header: (name: string) => headers[name.toLowerCase()],
  });
  it('reads ?apiKey first, then the X-Api-Key header, ignoring blanks', () => {
    expect(apiKeyOf(req({ apiKey: ' k1 ' }, { 'x-api-key': 'k2' }) as never)).toBe('k1');
    expect(apiKeyOf(req({ apiKey: '' }, { 'x-api-key': 'k2' }) as never)).toBe('k2');
    expect(apiKeyOf(req({ apiKey: ['a', 'b'] }) as never)).toBeUndefined();
    expect(apiKeyOf(req({}, { 'x-api-key': '  ' }) as never)).toBeUndefined();
  });
});

describe('widgetCors', () => {
  const app = express();
  app.use(widgetCors);
  app.get('/x', (_req, res) => {
    res.status(401).json({ statusCode: 401 });
  });

  it('answers a preflight for GET and POST (subscribe) with X-Api-Key, without credentials', async () => {
    const res = await request(app)
      .options('/x')
      .set('Origin', 'https://client.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-api-key');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('X-Api-Key, Content-Type');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets any origin read answers, errors included', async () => {
    const res = await request(app).get('/x').set('Origin', 'https://client.example.com');
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
