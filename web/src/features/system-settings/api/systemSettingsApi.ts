import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/** The reconcile the screen shows on load (GET /api/reconcile/last). */
const LAST = { type: 'Reconcile' as const, id: 'LAST' };

const systemTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['SystemSettings', 'Reconcile', 'Stock'] });

/**
 * System calls of spec section 7 (docs/api/announcements.md), all admin only, declared from proto's route
 * table; a mutation without `request` takes its route's body.
 */
export const systemSettingsApi = systemTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      getSystemSettings: query(routes.announcements.systemSettings, { providesTags: ['SystemSettings'] }),
      saveSystemSettings: mutation(routes.announcements.saveSystemSettings, {
        // The form shows the settings as saved (the server normalises the date) without another request.
        async onQueryStarted(_body, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(systemSettingsApi.util.upsertQueryData('getSystemSettings', undefined, data.settings));
          } catch {
            // The save flow shows the error.
          }
        },
      }),
      /** A report of the stored files; it changes nothing. */
      fileCleanup: query(routes.announcements.fileCleanup, { keepUnusedDataFor: 0 }),
      diskReport: query(routes.announcements.diskReport, {
        request: (includeBillable: boolean) => ({ query: { includeBillable: String(includeBillable) } }),
        keepUnusedDataFor: 0,
      }),
      lastReconcile: query(routes.announcements.reconcileLast, { providesTags: [LAST] }),
      getReconcile: query(routes.announcements.reconcileGet, {
        request: (id: string) => ({ params: { id } }),
        providesTags: (_result, _error, id) => [{ type: 'Reconcile', id }],
      }),
      /** Starts a run; it goes on in the background and the screen follows it with getReconcile. */
      runReconcile: mutation(routes.announcements.reconcileRun, {
        request: (numDays: number) => ({ query: { numDays } }),
        async onQueryStarted(_numDays, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(systemSettingsApi.util.upsertQueryData('getReconcile', data.id, data));
          } catch {
            // The section shows the error.
          }
        },
        invalidatesTags: (result) => (result ? [LAST] : []),
      }),
      /** Stores the run's missing announcements; it never sends them. */
      applyReconcile: mutation(routes.announcements.reconcileApply, {
        request: (id: string) => ({ params: { id } }),
        async onQueryStarted(id, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(systemSettingsApi.util.upsertQueryData('getReconcile', id, data));
          } catch {
            // The section shows the error.
          }
        },
        invalidatesTags: (result) => (result ? [LAST] : []),
      }),
      /** Reads every watchlist stock's quote now (also scheduled); a stock page shown since is stale. */
      syncWatchlist: mutation(routes.reports.syncWatchlist, {
        invalidatesTags: (result) => (result ? ['Stock'] : []),
      }),
      /** Loads the latest published trading day's trades now (T+3; also scheduled); stock-days already loaded are skipped. */
      runPriorDay: mutation(routes.reports.runPriorDay),
      sendTestEmail: mutation(routes.emailMarketing.sendSystemEmail),
    })),
});

export const {
  useGetSystemSettingsQuery,
  useSaveSystemSettingsMutation,
  useLazyFileCleanupQuery,
  useLazyDiskReportQuery,
  useLastReconcileQuery,
  useGetReconcileQuery,
  useRunReconcileMutation,
  useApplyReconcileMutation,
  useSyncWatchlistMutation,
  useRunPriorDayMutation,
  useSendTestEmailMutation,
} = systemSettingsApi;
