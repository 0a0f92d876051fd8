import { z } from 'zod';
import {
  access,
  assembleCatalogue,
  defineRoutes,
  defineServiceContract,
  describeAccess,
  fillPath,
  pathParams,
} from './common/index';
import { allRoutes, routes } from './index';

/** The keys of an object schema, through effects (refine/transform) and pipes; undefined when not an object. */
function keysOf(schema: z.ZodTypeAny | undefined): string[] | undefined {
  if (!schema) return undefined;
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape as object);
  if (schema instanceof z.ZodEffects) return keysOf(schema.innerType());
  if (schema instanceof z.ZodPipeline) return keysOf(schema._def.out as z.ZodTypeAny);
  return undefined;
}

describe('the route table', () => {
  const entries = allRoutes();

  it('has every entry once, named <group>.<name>, under /api (or the gateway group)', () => {
    expect(entries.length).toBeGreaterThan(50);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    for (const [group, table] of Object.entries(routes))
      for (const [name, entry] of Object.entries(table)) {
        expect(entry.id).toBe(`${entry.group}.${name}`);
        if (group !== 'gateway') expect(entry.path).toMatch(/^\/api\//);
      }
  });

  it('validates each path parameter with the params schema, and only those', () => {
    for (const entry of entries) {
      expect({ id: entry.id, params: (keysOf(entry.params) ?? []).sort() }).toEqual({
        id: entry.id,
        params: pathParams(entry.path).sort(),
      });
    }
  });

  it('names the stock of a per-stock rule by a field the request has', () => {
    for (const entry of entries) {
      const rule = entry.access;
      if (rule.kind !== 'signedIn' || !rule.stock) continue;
      const { from, key } = rule.stock.ref;
      const keys =
        from === 'param'
          ? pathParams(entry.path)
          : from === 'query'
            ? keysOf(entry.query)
            : keysOf(entry.body);
      expect({ id: entry.id, key, known: keys?.includes(key) }).toEqual({ id: entry.id, key, known: true });
    }
  });

  it('says why each public route is public, and describes every rule', () => {
    for (const entry of entries) {
      if (entry.access.kind === 'public') expect(entry.access.why.length).toBeGreaterThan(10);
      expect(describeAccess(entry.access)).toBeTruthy();
    }
    expect(describeAccess(access.admin())).toBe('signed in with the Admin role');
    expect(describeAccess(access.roles('Admin', 'RunReports'))).toBe(
      'signed in with the Admin or RunReports role (Admin passes)',
    );
  });

  it('changes no access rule without the change showing here (a reviewed snapshot of who may call what)', () => {
    // Loosening an entry's access is a security change: it fails this until the snapshot is updated
    // (`npx jest -u src/routes.spec.ts` in proto/), so the diff of __snapshots__ shows it in review.
    const rules = Object.fromEntries(
      entries.map((e) => [`${e.method} ${e.path} (${e.id})`, describeAccess(e.access)]),
    );
    expect(rules).toMatchSnapshot();
  });

  it('refuses one method and path claimed by two contracts', () => {
    const route = {
      method: 'GET' as const,
      path: '/api/x/',
      access: access.admin(),
      summary: 'x',
      response: z.object({}),
    };
    const a = defineServiceContract({
      service: 'aa',
      requests: {},
      routes: defineRoutes('aa', { x: route }),
    });
    const b = defineServiceContract({
      service: 'bb',
      requests: {},
      routes: defineRoutes('bb', { y: { ...route, path: '/api/X' } }),
    });
    expect(() => assembleCatalogue([a, b])).toThrow('GET /api/x is both aa.x and bb.y');
  });

  it('fills a path with encoded parameters and refuses a missing one', () => {
    expect(fillPath('/api/stock/{combinedTicker}', { combinedTicker: 'BHP:ASX' })).toBe(
      '/api/stock/BHP%3AASX',
    );
    expect(() => fillPath('/api/stock/{combinedTicker}', {})).toThrow('no value for {combinedTicker}');
  });
});
