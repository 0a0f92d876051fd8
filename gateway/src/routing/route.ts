import { Access, describeAccess, RouteEntry } from '@irp/proto';
import {
  applyDecorators,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiCookieAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiHeader,
  ApiOperation,
  ApiQuery,
  ApiSecurity,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { SwaggerDocumentOptions } from '@nestjs/swagger';
import type { z } from 'zod';
import { Contract } from '../common/contract';
import { RefusalInterceptor } from './refusal';
import { RestrictedFieldsInterceptor } from './restricted-fields';

/** Where @Route puts the handler's route entry; the guard and the start-up check read it. */
export const ROUTE_KEY = 'irp:route';

/** `{name}` -> `:name`: the entry's path as Nest's router writes it. */
export const nestPathOf = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

/** The security scheme names of the OpenAPI document (main.ts declares them). */
export const SECURITY = { session: 'session', widgetKey: 'apiKey', basic: 'basic' } as const;

/**
 * How the OpenAPI document is made from the routes: each operation is tagged by its entry's group
 * (@Route's ApiTags) alone, not also by its controller's name.
 */
export const DOCUMENT_OPTIONS: SwaggerDocumentOptions = { autoTagControllers: false };

/** `x-access`: the access rule as data plus the sentence people read. */
export function accessExtension(rule: Access) {
  const base = { summary: describeAccess(rule), kind: rule.kind };
  if (rule.kind !== 'signedIn') return base;
  return {
    ...base,
    globalRoles: rule.globalRoles ?? [],
    stockRoles: rule.stock?.roles ?? [],
    ...(rule.stock ? { stockFrom: rule.stock.ref } : {}),
    adminPasses: true,
  };
}

type Handler<R extends z.ZodTypeAny> = (...args: never[]) => z.input<R> | Promise<z.input<R>>;

function accessDocs(entry: RouteEntry): MethodDecorator[] {
  const rule = entry.access;
  const docs: MethodDecorator[] = [ApiExtension('x-access', accessExtension(rule))];
  if (rule.kind === 'widget')
    docs.push(
      ApiSecurity(SECURITY.widgetKey),
      ApiHeader({ name: 'X-Api-Key', required: false, description: "The stock's API key (or ?apiKey=)" }),
      ApiQuery({
        name: 'apiKey',
        required: false,
        description: "The stock's API key (or the X-Api-Key header)",
      }),
      ApiUnauthorizedResponse({ description: 'No or unknown API key' }),
    );
  if (rule.kind === 'signedIn') {
    docs.push(ApiCookieAuth(SECURITY.session), ApiUnauthorizedResponse({ description: 'Not signed in' }));
    const onlyAnyUser = !rule.globalRoles?.length && !rule.stock;
    if (!onlyAnyUser) docs.push(ApiForbiddenResponse({ description: `Needs ${describeAccess(rule)}` }));
  }
  if (entry.id === 'users.login') docs.push(ApiBasicAuth(SECURITY.basic));
  return docs;
}

/**
 * Binds a handler to its entry of proto's route table: the method and path, the success status, the
 * access rule (read by the global AuthGuard: nothing passes without an entry), the request validation
 * and response typing (@Contract: the compiler checks the handler returns the entry's response), a
 * vendor's refusal as the answer's `errorMessage` (`refusal`), the fields the caller's roles do not allow
 * stripped from the answer, and the OpenAPI operation with its `x-access`. Controllers carry no path of
 * their own (`@Controller()`).
 */
export function Route<E extends RouteEntry>(entry: E) {
  const decorators: MethodDecorator[] = [
    RequestMapping({ path: nestPathOf(entry.path), method: RequestMethod[entry.method] }),
    HttpCode(entry.status ?? 200),
    SetMetadata(ROUTE_KEY, entry),
    ApiTags(entry.group),
    ApiOperation({
      operationId: entry.id,
      summary: entry.summary,
      description: [entry.description, `Access: ${describeAccess(entry.access)}.`]
        .filter(Boolean)
        .join('\n\n'),
    }),
    ...accessDocs(entry),
  ];
  if (entry.refusal) decorators.push(UseInterceptors(new RefusalInterceptor(entry)));
  if (entry.restricted?.length) {
    decorators.push(UseInterceptors(new RestrictedFieldsInterceptor(entry.restricted)));
    decorators.push(ApiExtension('x-restricted-fields', entry.restricted));
  }
  const contract = Contract<E['response']>({
    params: entry.params,
    query: entry.query,
    body: entry.body,
    multipart: entry.multipart,
    bodyTypes: entry.bodyTypes,
    response: entry.response,
    produces: entry.produces,
    save: entry.save,
  });
  const apply = applyDecorators(...decorators);
  return <H extends Handler<E['response']>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): TypedPropertyDescriptor<H> | void => {
    contract(target, key, descriptor);
    apply(target, key, descriptor);
  };
}
