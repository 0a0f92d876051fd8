/**
 * `{id}` of /api/users/{id} that means "create": in a module of its own, without zod, so the web app can
 * import it as a value (its bundle carries no zod: scripts/test/web-bundle.test.mjs).
 */
export const NEW_USER_ID = 'new';
