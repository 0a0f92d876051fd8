import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { SecondFactorRequiredModal } from '@/features/account-security/components/SecondFactorRequiredModal';
import { ChangePasswordModal } from '@/features/users/components/ChangePasswordModal';
import { loginRedirectState } from '@/lib/session/redirect';
import { selectSessionUser, sessionStarted } from '@/lib/session/sessionSlice';

/**
 * Signed-out visitors of a protected route go to /login, remembering where they were going. A user whose
 * password someone else set chooses their own first (issue 34: the server refuses everything else), then
 * the page they asked for opens. Likewise a user whose roles need a second factor sets one up (after the
 * password, if both are due).
 */
export function RequireAuth() {
  const user = useAppSelector(selectSessionUser);
  const dispatch = useAppDispatch();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={loginRedirectState(location)} />;
  if (user.mustChangePassword)
    return (
      <ChangePasswordModal
        opened
        required
        onClose={() => undefined}
        onChanged={() => dispatch(sessionStarted({ ...user, mustChangePassword: false }))}
      />
    );
  if (user.mustAddSecondFactor)
    return (
      <SecondFactorRequiredModal
        onAdded={() => dispatch(sessionStarted({ ...user, mustAddSecondFactor: false }))}
      />
    );
  return <Outlet />;
}
