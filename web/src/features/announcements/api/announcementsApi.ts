import type {
  Announcement,
  AnnouncementChangeResponse,
  AnnouncementList,
  InitialPollProgress,
} from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { announcementFormData, type AnnouncementFormValues } from '../model/announcements';

/** POST /api/admin/sendConfirmationAnnouncementEmail (proto's SendConfirmationResponseSchema). */
export interface SendConfirmationResponse {
  success: true;
  recipients: string[];
  errorMessage: null;
}

/** POST /api/admin/resyncAnnouncements (proto's ResyncResponseSchema). */
export interface ResyncResponse {
  success: true;
  initialPoll: InitialPollProgress;
}

export interface SaveAnnouncementArgs {
  combinedTicker: string;
  values: AnnouncementFormValues;
  /** The announcement being edited; null adds one. */
  existing: Announcement | null;
}

export interface AnnouncementArgs {
  combinedTicker: string;
  announcement: Announcement;
}

export interface SendAnnouncementArgs extends AnnouncementArgs {
  /** A resend the user confirmed twice (spec section 4): `?sendOverride=true`. */
  override: boolean;
}

/**
 * 'Announcements' is this feature's (the client page's list). The staff page shows the announcements the
 * stock page composes (GET /api/stock, tag 'Stock' of the stocks feature), and the client page's stock is
 * 'ClientStock' of the client-stocks feature: both shared by name, never by import (web/README.md).
 */
const announcementsTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['Announcements', 'Stock', 'ClientStock'],
});

const changed = (combinedTicker: string) => [
  { type: 'Announcements' as const, id: combinedTicker },
  'Stock' as const,
];

const path = (combinedTicker: string) => encodeURIComponent(combinedTicker);

/** Announcement calls of spec section 7 (docs/api/announcements.md), typed with proto's REST shapes. */
export const announcementsApi = announcementsTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/Announcement/list/{combinedTicker}: newest first, deleted ones included. */
    listAnnouncements: build.query<AnnouncementList, string>({
      query: (combinedTicker) => `/Announcement/list/${path(combinedTicker)}`,
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Announcements', id: combinedTicker }],
    }),
    /** POST /api/Announcement/save/{combinedTicker}: multipart, the PDF in `file`. */
    saveAnnouncement: build.mutation<AnnouncementChangeResponse, SaveAnnouncementArgs>({
      query: ({ combinedTicker, values, existing }) => ({
        url: `/Announcement/save/${path(combinedTicker)}`,
        method: 'POST',
        body: announcementFormData(values, existing),
      }),
      invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
    }),
    deleteAnnouncement: build.mutation<AnnouncementChangeResponse, AnnouncementArgs>({
      query: ({ combinedTicker, announcement }) => ({
        url: `/Announcement/delete/${path(combinedTicker)}`,
        method: 'POST',
        body: announcement,
      }),
      invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
    }),
    sendAnnouncement: build.mutation<AnnouncementChangeResponse, SendAnnouncementArgs>({
      query: ({ combinedTicker, announcement, override }) => ({
        url: `/Announcement/send/${path(combinedTicker)}`,
        method: 'POST',
        params: override ? { sendOverride: 'true' } : undefined,
        body: announcement,
      }),
      invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
    }),
    /** Admin: emails the stock's confirmation addresses; the announcement itself does not change. */
    sendConfirmationEmail: build.mutation<SendConfirmationResponse, AnnouncementArgs>({
      query: ({ combinedTicker, announcement }) => ({
        url: `/admin/sendConfirmationAnnouncementEmail/${path(combinedTicker)}`,
        method: 'POST',
        body: announcement,
      }),
    }),
    /**
     * Admin: runs the initial poll again. The staff page shows it at once from the answer (its stock is
     * patched locally, spec section 4) and then follows the run by fetching the stock.
     */
    resyncAnnouncements: build.mutation<ResyncResponse, string>({
      query: (combinedTicker) => ({
        url: '/admin/resyncAnnouncements',
        method: 'POST',
        params: { ticker: combinedTicker },
      }),
      invalidatesTags: (result, _error, combinedTicker) =>
        result ? [{ type: 'Announcements', id: combinedTicker }] : [],
    }),
  }),
});

export const {
  useListAnnouncementsQuery,
  useSaveAnnouncementMutation,
  useDeleteAnnouncementMutation,
  useSendAnnouncementMutation,
  useSendConfirmationEmailMutation,
  useResyncAnnouncementsMutation,
} = announcementsApi;
