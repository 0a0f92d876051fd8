import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

const accountSecurityTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['AccountSecurity'] });

/**
 * The signed-in user's own second factors (issue 34; docs/api/users.md): passkeys, the authenticator app
 * and recovery codes. Every change refetches the summary (GET /api/account/security).
 */
export const accountSecurityApi = accountSecurityTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/account/security: `{ passkeys, totp, recoveryCodesLeft, required }`. */
      accountSecurity: query(routes.users.accountSecurity, { providesTags: ['AccountSecurity'] }),
      /** POST /api/account/passkeys/options: what the browser needs to create a passkey. */
      passkeyOptions: mutation(routes.users.passkeyOptions),
      /** POST /api/account/passkeys: `{ name, response }`; the first second factor also gets recovery codes. */
      addPasskey: mutation(routes.users.addPasskey, { invalidatesTags: ['AccountSecurity'] }),
      /** DELETE /api/account/passkeys/{id}: refused (LAST_REQUIRED_FACTOR) for the last factor roles need. */
      removePasskey: mutation(routes.users.removePasskey, {
        request: (id: string) => ({ params: { id } }),
        invalidatesTags: ['AccountSecurity'],
      }),
      /** POST /api/account/totp/setup: a new secret (and its otpauth:// URI), unused until confirmed. */
      beginTotp: mutation(routes.users.beginTotp),
      /** POST /api/account/totp: `{ code }` of the app confirms it; it may bring recovery codes. */
      confirmTotp: mutation(routes.users.confirmTotp, { invalidatesTags: ['AccountSecurity'] }),
      /** DELETE /api/account/totp: refused (LAST_REQUIRED_FACTOR) like a passkey's removal. */
      removeTotp: mutation(routes.users.removeTotp, { invalidatesTags: ['AccountSecurity'] }),
      /** POST /api/account/recovery-codes: new codes, shown once; the old ones stop working. */
      renewRecoveryCodes: mutation(routes.users.renewRecoveryCodes, { invalidatesTags: ['AccountSecurity'] }),
    })),
});

export const {
  useAccountSecurityQuery,
  usePasskeyOptionsMutation,
  useAddPasskeyMutation,
  useRemovePasskeyMutation,
  useBeginTotpMutation,
  useConfirmTotpMutation,
  useRemoveTotpMutation,
  useRenewRecoveryCodesMutation,
} = accountSecurityApi;
