import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi } from '@/api/baseApi';
import { staffDashboardSlice } from '@/features/staff-dashboard/model/filtersSlice';
import { sessionSlice } from '@/lib/session/sessionSlice';
import { uiSlice } from '@/lib/ui/uiSlice';

const rootReducer = combineSlices(baseApi, sessionSlice, uiSlice, staffDashboardSlice);

export type RootState = ReturnType<typeof rootReducer>;

/**
 * Redux Toolkit's development checks (state mutated outside a reducer, a value that does not serialise) walk
 * the whole state after every action: tens of milliseconds with a dashboard in the cache. The dev server keeps
 * them; production builds drop them anyway; the unit tests, which check what screens do, go without.
 */
const DEV_CHECKS = import.meta.env.MODE !== 'test';

/** A fresh store; the app uses one, tests make their own with a preloaded state. */
export function setupStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ immutableCheck: DEV_CHECKS, serializableCheck: DEV_CHECKS }).concat(
        baseApi.middleware,
      ),
  });
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];

export const store = setupStore();
setupListeners(store.dispatch);
