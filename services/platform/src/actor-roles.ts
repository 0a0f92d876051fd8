import { Actor, ErrorCode, hasGlobalRole, hasStockRole, isAdmin } from '@irp/proto';
import { AppError } from './errors';

// A service's own check of the (signed) actor's roles before it changes or shows a stock's state for them:
// the gateway's route guard checks first, but a service acts only on what it verified itself.

/** Refuses (FORBIDDEN) unless the actor is an admin; `action` completes "You need the Admin role to …". */
export function requireAdminActor(actor: Actor, action: string): void {
  if (!isAdmin(actor)) throw new AppError(ErrorCode.Forbidden, `You need the Admin role to ${action}`);
}

/**
 * Refuses (FORBIDDEN) unless the actor holds one of the global `roles` (Admin holds them all); `action`
 * completes "You need the … role to …".
 */
export function requireGlobalRoleOf(actor: Actor, roles: readonly string[], action: string): void {
  if (!hasGlobalRole(actor, roles))
    throw new AppError(ErrorCode.Forbidden, `You need the ${roles.join(' or ')} role to ${action}`);
}

/**
 * Refuses (FORBIDDEN) unless the actor holds one of `roles` on the stock (Admin holds them all);
 * `action` completes "You need … on <stock> to …".
 */
export function requireStockRoleOf(
  actor: Actor,
  stock: { id: string; combinedTicker?: string },
  roles: readonly string[],
  action: string,
): void {
  if (hasStockRole(actor, stock.id, roles)) return;
  const named = roles.join(' or ');
  throw new AppError(
    ErrorCode.Forbidden,
    `You need the ${named} role on ${stock.combinedTicker ?? 'this stock'} to ${action}`,
  );
}
