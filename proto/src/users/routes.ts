import { SuccessSchema } from '../common/rest';
import { access, defineRoutes } from '../common/routes';
import { SessionUserDtoSchema } from './rest';

/** The auth routes of spec section 7: sign in, sign out, the session user. */
export const userRoutes = defineRoutes('users', {
  login: {
    method: 'GET',
    path: '/api/login',
    access: access.public('signing in: Basic auth credentials, throttled'),
    summary: 'Sign in with Basic auth; sets the session, refresh and CSRF cookies',
    response: SessionUserDtoSchema,
  },
  logout: {
    method: 'DELETE',
    path: '/api/login',
    access: access.public('signing out: ends the session the cookies name, if any'),
    summary: 'Sign out: revokes the session and clears the cookies',
    response: SuccessSchema,
  },
  refreshToken: {
    method: 'GET',
    path: '/api/admin/refreshtoken',
    access: access.public('answers 401 without a session; renews one only from a valid refresh cookie'),
    summary: 'The session user; renews an expired session from the refresh cookie',
    response: SessionUserDtoSchema,
  },
});
