import { baseApi } from '@/api/baseApi';
import { callRoute, type BodyOf, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';

/** A reconcile run as the reconcile routes answer it. */
type Reconcile = ResponseOf<typeof routes.announcements.reconcileGet>;

/** The reconcile the screen shows on load (GET /api/reconcile/last). */
const LAST = { type: 'Reconcile' as const, id: 'LAST' };

const systemTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['SystemSettings', 'Reconcile', 'Stock'] });

/** System calls of spec section 7 (docs/api/announcements.md), all admin only, typed by proto's route table. */
export const systemSettingsApi = systemTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    getSystemSettings: build.query<ResponseOf<typeof routes.announcements.systemSettings>, void>({
      query: () => callRoute(routes.announcements.systemSettings),
      providesTags: ['SystemSettings'],
    }),
    saveSystemSettings: build.mutation<
      ResponseOf<typeof routes.announcements.saveSystemSettings>,
      BodyOf<typeof routes.announcements.saveSystemSettings>
    >({
      query: (body) => callRoute(routes.announcements.saveSystemSettings, { body }),
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
    fileCleanup: build.query<ResponseOf<typeof routes.announcements.fileCleanup>, void>({
      query: () => callRoute(routes.announcements.fileCleanup),
      keepUnusedDataFor: 0,
    }),
    diskReport: build.query<ResponseOf<typeof routes.announcements.diskReport>, boolean>({
      query: (includeBillable) =>
        callRoute(routes.announcements.diskReport, { query: { includeBillable: String(includeBillable) } }),
      keepUnusedDataFor: 0,
    }),
    lastReconcile: build.query<ResponseOf<typeof routes.announcements.reconcileLast>, void>({
      query: () => callRoute(routes.announcements.reconcileLast),
      providesTags: [LAST],
    }),
    getReconcile: build.query<Reconcile, string>({
      query: (id) => callRoute(routes.announcements.reconcileGet, { params: { id } }),
      providesTags: (_result, _error, id) => [{ type: 'Reconcile', id }],
    }),
    /** Starts a run; it goes on in the background and the screen follows it with getReconcile. */
    runReconcile: build.mutation<ResponseOf<typeof routes.announcements.reconcileRun>, number>({
      query: (numDays) => callRoute(routes.announcements.reconcileRun, { query: { numDays } }),
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
    applyReconcile: build.mutation<ResponseOf<typeof routes.announcements.reconcileApply>, string>({
      query: (id) => callRoute(routes.announcements.reconcileApply, { params: { id } }),
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
    syncWatchlist: build.mutation<ResponseOf<typeof routes.reports.syncWatchlist>, void>({
      query: () => callRoute(routes.reports.syncWatchlist),
      invalidatesTags: (result) => (result ? ['Stock'] : []),
    }),
    /** Loads the previous trading day's trades now (also scheduled); stock-days already loaded are skipped. */
    runPriorDay: build.mutation<ResponseOf<typeof routes.reports.runPriorDay>, void>({
      query: () => callRoute(routes.reports.runPriorDay),
    }),
    sendTestEmail: build.mutation<
      ResponseOf<typeof routes.emailMarketing.sendSystemEmail>,
      BodyOf<typeof routes.emailMarketing.sendSystemEmail>
    >({
      query: (body) => callRoute(routes.emailMarketing.sendSystemEmail, { body }),
    }),
  }),
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
