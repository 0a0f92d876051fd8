import { hasGlobalRole, hasStockRole, RestrictedFields, RoleHolder } from '@irp/proto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object (or objects) at a dotted path ('' the value itself, 'stocks[]' each element), rewritten. */
function rewriteAt(value: unknown, segments: string[], rewrite: (object: Json) => Json): unknown {
  if (!segments.length) return isObject(value) ? rewrite(value) : value;
  const [head = '', ...rest] = segments;
  const many = head.endsWith('[]');
  const key = many ? head.slice(0, -2) : head;
  if (!isObject(value) || !(key in value)) return value;
  const inner = value[key];
  const next = many
    ? Array.isArray(inner)
      ? inner.map((item) => rewriteAt(item, rest, rewrite))
      : inner
    : rewriteAt(inner, rest, rewrite);
  return { ...value, [key]: next };
}

/**
 * Least privilege on the way out: deletes from a response the fields the caller's roles do not allow
 * (the route entry's `restricted`). A stock-role rule is checked on the object's own stock, so a list of
 * stocks shows each one's fields by the roles held on it. Never mutates the handler's objects.
 */
export function stripRestricted(
  body: unknown,
  restricted: readonly RestrictedFields[],
  user: RoleHolder | undefined,
): unknown {
  let out = body;
  for (const spot of restricted) {
    out = rewriteAt(out, spot.at ? spot.at.split('.') : [], (object) => {
      const stockId = object[spot.stockIdField ?? 'id'];
      const hidden = new Set<string>();
      for (const rule of spot.rules) {
        const allowed =
          (rule.globalRoles?.length ? hasGlobalRole(user, rule.globalRoles) : false) ||
          (rule.stockRoles?.length && typeof stockId === 'string'
            ? hasStockRole(user, stockId, rule.stockRoles)
            : false);
        if (!allowed) for (const field of rule.fields) hidden.add(field);
      }
      if (!hidden.size) return object;
      return Object.fromEntries(Object.entries(object).filter(([field]) => !hidden.has(field)));
    });
  }
  return out;
}

/** Applies a route entry's `restricted` to the handler's answer, for the request's user. */
@Injectable()
export class RestrictedFieldsInterceptor implements NestInterceptor {
  constructor(private readonly restricted: readonly RestrictedFields[]) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const user = context.switchToHttp().getRequest<{ user?: RoleHolder }>().user;
    return next.handle().pipe(map((body: unknown) => stripRestricted(body, this.restricted, user)));
  }
}
