import type { Announcement } from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { callRoute, type ResponseOf } from '@/api/route';
import { routes } from '@/api/routes';
import { announcementFormData, type AnnouncementFormValues } from '../model/announcements';

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

/** An announcement change answers the announcement as stored (proto's AnnouncementChangeResponseSchema). */
type AnnouncementChanged = ResponseOf<typeof routes.announcements.save>;

/** Announcement calls of spec section 7 (docs/api/announcements.md), typed by proto's route table. */
export const announcementsApi = announcementsTaggedApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/Announcement/list/{combinedTicker}: newest first, deleted ones included. */
    listAnnouncements: build.query<ResponseOf<typeof routes.announcements.list>, string>({
      query: (combinedTicker) => callRoute(routes.announcements.list, { params: { combinedTicker } }),
      providesTags: (_result, _error, combinedTicker) => [{ type: 'Announcements', id: combinedTicker }],
    }),
    /** POST /api/Announcement/save/{combinedTicker}: multipart, the PDF in `file`. */
    saveAnnouncement: build.mutation<AnnouncementChanged, SaveAnnouncementArgs>({
      query: ({ combinedTicker, values, existing }) =>
        callRoute(routes.announcements.save, {
          params: { combinedTicker },
          body: announcementFormData(values, existing),
        }),
      invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
    }),
    deleteAnnouncement: build.mutation<ResponseOf<typeof routes.announcements.delete>, AnnouncementArgs>({
      query: ({ combinedTicker, announcement }) =>
        callRoute(routes.announcements.delete, { params: { combinedTicker }, body: announcement }),
      invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
    }),
    sendAnnouncement: build.mutation<ResponseOf<typeof routes.announcements.send>, SendAnnouncementArgs>({
      query: ({ combinedTicker, announcement, override }) =>
        callRoute(routes.announcements.send, {
          params: { combinedTicker },
          query: override ? { sendOverride: 'true' } : undefined,
          body: announcement,
        }),
      invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
    }),
    /** Admin: emails the stock's confirmation addresses; the announcement itself does not change. */
    sendConfirmationEmail: build.mutation<
      ResponseOf<typeof routes.announcements.sendConfirmation>,
      AnnouncementArgs
    >({
      query: ({ combinedTicker, announcement }) =>
        callRoute(routes.announcements.sendConfirmation, { params: { combinedTicker }, body: announcement }),
    }),
    /**
     * Admin: runs the initial poll again. The staff page shows it at once from the answer (its stock is
     * patched locally, spec section 4) and then follows the run by fetching the stock.
     */
    resyncAnnouncements: build.mutation<ResponseOf<typeof routes.announcements.resync>, string>({
      query: (combinedTicker) =>
        callRoute(routes.announcements.resync, { query: { ticker: combinedTicker } }),
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
