import { render, type RenderResult } from '@testing-library/react';
import type { SessionUserDto } from '@irp/proto';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { setupStore, type AppStore } from '@/app/store';

/** A session user as the gateway returns it. */
export function sessionUser(
  username: string,
  roles: Record<string, boolean> = {},
  stockRoles: Record<string, string[]> = {},
): SessionUserDto {
  return { username, user: { id: `id-${username}`, username }, roles, stockRoles };
}

/** A store whose start-up refresh already answered (signed in as `user`, or signed out). */
export function storeWith(user: SessionUserDto | null = null): AppStore {
  return setupStore({ session: { user, restore: 'settled', endedReason: null } });
}

export function renderWithProviders(
  ui: ReactElement,
  store: AppStore = storeWith(),
): RenderResult & { store: AppStore } {
  return {
    store,
    ...render(
      <AppProvider store={store} env="test">
        {ui}
      </AppProvider>,
    ),
  };
}

/** Renders the app's route table (or `routeTable`) at `path` in memory. */
export function renderRoute(
  path: string,
  { store = storeWith(), routeTable = routes }: { store?: AppStore; routeTable?: RouteObject[] } = {},
) {
  const router = createMemoryRouter(routeTable, { initialEntries: [path] });
  return { router, ...renderWithProviders(<RouterProvider router={router} />, store) };
}

/** A JSON response as fetch resolves it. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** The Request the n-th fetch call was given (fetchBaseQuery always passes a Request). */
export function requestOf(fetchMock: { mock: { calls: unknown[][] } }, index = 0): Request {
  const request = fetchMock.mock.calls[index]?.[0];
  if (!(request instanceof Request)) throw new Error(`fetch call ${index} had no Request`);
  return request;
}
