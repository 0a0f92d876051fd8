import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { loginRedirectState } from '@/lib/session/redirect';
import { selectIsSignedIn } from '@/lib/session/sessionSlice';

/** Signed-out visitors of a protected route go to /login, remembering where they were going. */
export function RequireAuth() {
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  if (!signedIn) return <Navigate to="/login" replace state={loginRedirectState(location)} />;
  return <Outlet />;
}
