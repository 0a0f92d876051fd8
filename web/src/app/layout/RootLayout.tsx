import { AppShell } from '@mantine/core';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { GlobalSpinner } from '@/components/GlobalSpinner';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { AppHeader } from './AppHeader';
import { shouldShowNav } from './nav';

const HEADER_HEIGHT = 56;

/** Every route renders inside this: the top navigation where it belongs, the page, the global spinner. */
export function RootLayout() {
  const user = useAppSelector(selectSessionUser);
  const { pathname } = useLocation();
  const showNav = user !== null && shouldShowNav(pathname, true);

  return (
    <AppShell header={showNav ? { height: HEADER_HEIGHT } : undefined} padding="md">
      {showNav && user && (
        <AppShell.Header>
          <AppHeader user={user} />
        </AppShell.Header>
      )}
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <GlobalSpinner />
      <ScrollRestoration />
    </AppShell>
  );
}
