import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { CenteredLoader } from '@/components/CenteredLoader';
import { restoreSession, selectSessionSettled } from '@/lib/session/sessionSlice';
import { useAppDispatch, useAppSelector } from './hooks';
import { routes } from './router';
import { unregisterServiceWorkers } from './bootstrap';

function AppRouter() {
  // Created on first render, after the session is known, so the first route already sees the user.
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}

/** Start-up (spec section 2): drop old service workers, restore the session, then render the routes. */
export function App() {
  const dispatch = useAppDispatch();
  const settled = useAppSelector(selectSessionSettled);

  useEffect(() => {
    void unregisterServiceWorkers();
    void dispatch(restoreSession());
  }, [dispatch]);

  return settled ? <AppRouter /> : <CenteredLoader />;
}
