import type { DiskReportItem, FileCleanup, Reconcile, SystemSettings, SystemSettingsBody } from '@irp/proto';
import { baseApi } from '@/api/baseApi';

/** POST /api/admin/systemSettings (proto's SystemSettingsSavedSchema). */
export interface SystemSettingsSaved {
  success: true;
  settings: SystemSettings;
  errorMessage: null;
}

/** POST /api/admin/sendEmail (the email-marketing service sends it): `{ success, errorMessage }`. */
export interface TestEmailResult {
  success?: boolean;
  errorMessage?: string | null;
}

/** The reconcile the screen shows on load (GET /api/reconcile/last/). */
const LAST = { type: 'Reconcile' as const, id: 'LAST' };

const systemTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['SystemSettings', 'Reconcile'] });

/** System calls of spec section 7 (docs/api/announcements.md), all admin only. */
export const systemSettingsApi = systemTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    getSystemSettings: build.query<SystemSettings, void>({
      query: () => '/admin/systemSettings',
      providesTags: ['SystemSettings'],
    }),
    saveSystemSettings: build.mutation<SystemSettingsSaved, SystemSettingsBody>({
      query: (body) => ({ url: '/admin/systemSettings', method: 'POST', body }),
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
    fileCleanup: build.query<FileCleanup, void>({
      query: () => '/admin/fileCleanup',
      keepUnusedDataFor: 0,
    }),
    diskReport: build.query<DiskReportItem[], boolean>({
      query: (includeBillable) => ({
        url: '/admin/diskReport',
        params: { includeBillable: String(includeBillable) },
      }),
      keepUnusedDataFor: 0,
    }),
    lastReconcile: build.query<Reconcile | null, void>({
      query: () => '/reconcile/last/',
      providesTags: [LAST],
    }),
    getReconcile: build.query<Reconcile, string>({
      query: (id) => `/reconcile/get/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Reconcile', id }],
    }),
    /** Starts a run; it goes on in the background and the screen follows it with getReconcile. */
    runReconcile: build.mutation<Reconcile, number>({
      query: (numDays) => ({ url: '/reconcile/run', method: 'POST', params: { numDays } }),
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
    applyReconcile: build.mutation<Reconcile, string>({
      query: (id) => ({ url: `/reconcile/apply/${encodeURIComponent(id)}`, method: 'POST' }),
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
    sendTestEmail: build.mutation<TestEmailResult, { email: string }>({
      query: (body) => ({ url: '/admin/sendEmail', method: 'POST', body }),
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
  useSendTestEmailMutation,
} = systemSettingsApi;
