import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { baseApi } from '@/api/baseApi';
import { useGlobalSpinner } from '@/lib/ui/useGlobalSpinner';
import { useLogoutMutation } from './sessionApi';
import { sessionEnded } from './sessionSlice';

/** Logout: DELETE /api/login, then forget the user and every cached answer, and go to /login. */
export function useLogout(): () => Promise<void> {
  const [logout] = useLogoutMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const withSpinner = useGlobalSpinner();

  return useCallback(async () => {
    try {
      await withSpinner(() => logout().unwrap());
    } catch {
      // The session is gone from this tab either way; the server cookies expire on their own.
    }
    // Leave the protected page first (committed synchronously), so its guard does not record it as the page
    // to return to: the next user to sign in starts at home.
    await navigate('/login', { flushSync: true });
    dispatch(sessionEnded());
    dispatch(baseApi.util.resetApiState());
  }, [dispatch, logout, navigate, withSpinner]);
}
