import { baseApi } from '@/api/baseApi';
import type { BodyOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

const usersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Users', 'User'] });

/** The Users screens' calls (spec section 7, Users; docs/api/users.md), declared from proto's table. */
export const usersApi = usersTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/users/: id and username of every user, by username. */
      users: query(routes.users.list, { providesTags: ['Users'] }),
      /** GET /api/users/{id}: the editor's user ('new': an empty one); `audit` only for an Admin. */
      user: query(routes.users.get, {
        request: (id: string) => ({ params: { id } }),
        providesTags: (_result, _error, id) => [{ type: 'User', id }],
      }),
      /** POST /api/users/{id}: `{ success, errorMessage, id }`; a refusal is 4xx with errorMessage. */
      saveUser: mutation(routes.users.save, {
        request: ({ id, body }: { id: string; body: BodyOf<typeof routes.users.save> }) => ({
          params: { id },
          body,
        }),
        invalidatesTags: (result) => (result ? ['Users', { type: 'User', id: result.id }] : []),
      }),
      /** GET /api/userEditor/companies?search=: the 'Choose Company' matches (exact, anywhere, any case). */
      companies: query(routes.users.companies, {
        request: (search: string) => ({ query: { search } }),
      }),
      /** POST /api/account/password: the signed-in user's own password; a wrong current one is 400. */
      changeOwnPassword: mutation(routes.users.changeOwnPassword),
    })),
});

export const {
  useUsersQuery,
  useUserQuery,
  useSaveUserMutation,
  useCompaniesQuery,
  useChangeOwnPasswordMutation,
} = usersApi;
