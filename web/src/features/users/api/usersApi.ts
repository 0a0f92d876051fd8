import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

const usersTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['Users', 'User'] });

/** The Users screens' calls (spec section 7, Users; docs/api/users.md), typed by proto's table. */
export const usersApi = usersTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/users/: id and username of every user, by username. */
    users: build.query<ResponseOf<typeof routes.users.list>, void>({
      query: () => callRoute(routes.users.list),
      providesTags: ['Users'],
    }),
    /** GET /api/users/{id}: the editor's user ('new': an empty one); `audit` only for an Admin. */
    user: build.query<ResponseOf<typeof routes.users.get>, string>({
      query: (id) => callRoute(routes.users.get, { params: { id } }),
      providesTags: (_result, _error, id) => [{ type: 'User', id }],
    }),
    /** POST /api/users/{id}: `{ success, errorMessage, id }`; a refusal is 4xx with errorMessage. */
    saveUser: build.mutation<
      ResponseOf<typeof routes.users.save>,
      { id: string; body: BodyOf<typeof routes.users.save> }
    >({
      query: ({ id, body }) => callRoute(routes.users.save, { params: { id }, body }),
      invalidatesTags: (result) => (result ? ['Users', { type: 'User', id: result.id }] : []),
    }),
    /** GET /api/userEditor/companies?search=: the 'Choose Company' matches (exact, anywhere, any case). */
    companies: build.query<ResponseOf<typeof routes.users.companies>, string>({
      query: (search) => callRoute(routes.users.companies, { query: { search } }),
    }),
    /** POST /api/account/password: the signed-in user's own password; a wrong current one is 400. */
    changeOwnPassword: build.mutation<
      ResponseOf<typeof routes.users.changeOwnPassword>,
      BodyOf<typeof routes.users.changeOwnPassword>
    >({
      query: (body) => callRoute(routes.users.changeOwnPassword, { body }),
    }),
  }),
});

export const {
  useUsersQuery,
  useUserQuery,
  useSaveUserMutation,
  useCompaniesQuery,
  useChangeOwnPasswordMutation,
} = usersApi;
