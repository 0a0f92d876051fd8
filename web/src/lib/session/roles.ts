/**
 * Role checks of the web app: proto's predicates (the same the gateway and the services apply), which
 * read the SessionUserDto's role flags as they read the services' role lists.
 */
export {
  canEditUsers,
  grantedRoles,
  hasRole,
  hasStockRole,
  isAdmin,
  isStaff as isStaffUser,
} from '@irp/proto';
