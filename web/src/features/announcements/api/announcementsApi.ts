import {
  STOCK_LIST_UNAVAILABLE_HEADER,
  unavailableServicesOf,
  type Announcement,
  type AnnouncementList,
} from '@irp/proto';
import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
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

/** A page of the list with the services that did not answer for it (its header: 'email-marketing'). */
const withUnavailable = (list: AnnouncementList, meta: { response?: Response } | undefined) => ({
  ...list,
  unavailable: unavailableServicesOf(meta?.response?.headers.get(STOCK_LIST_UNAVAILABLE_HEADER)),
});

/** A page of a stock's announcements after another page's last (its `next`). */
export interface OlderAnnouncementsArgs {
  combinedTicker: string;
  after: string;
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

/**
 * Announcement calls of spec section 7 (docs/api/announcements.md), declared from proto's route table. An
 * announcement change answers the announcement as stored (proto's AnnouncementChangeResponseSchema).
 */
export const announcementsApi = announcementsTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /**
       * GET /api/Announcement/list/{combinedTicker}: newest first, deleted ones included, with the services
       * that did not answer for it (a header: 'email-marketing' when who was mailed is unknown).
       */
      listAnnouncements: query(routes.announcements.list, {
        request: (combinedTicker: string) => ({ params: { combinedTicker } }),
        transformResponse: withUnavailable,
        providesTags: (_result, _error, combinedTicker) => [{ type: 'Announcements', id: combinedTicker }],
      }),
      /**
       * The same list's older pages: the page after `after` (the `next` of the stock page or of the page
       * before). Any announcement change refetches them, as it does the newest page.
       */
      olderAnnouncements: query(routes.announcements.list, {
        request: ({ combinedTicker, after }: OlderAnnouncementsArgs) => ({
          params: { combinedTicker },
          query: { after },
        }),
        transformResponse: withUnavailable,
        providesTags: (_result, _error, { combinedTicker }) => [
          { type: 'Announcements', id: combinedTicker },
          'Stock',
          'ClientStock',
        ],
      }),
      /** POST /api/Announcement/save/{combinedTicker}: multipart, the PDF in `file`. */
      saveAnnouncement: mutation(routes.announcements.save, {
        request: ({ combinedTicker, values, existing }: SaveAnnouncementArgs) => ({
          params: { combinedTicker },
          body: announcementFormData(values, existing),
        }),
        invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
      }),
      deleteAnnouncement: mutation(routes.announcements.delete, {
        request: ({ combinedTicker, announcement }: AnnouncementArgs) => ({
          params: { combinedTicker },
          body: announcement,
        }),
        invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
      }),
      sendAnnouncement: mutation(routes.announcements.send, {
        request: ({ combinedTicker, announcement, override }: SendAnnouncementArgs) => ({
          params: { combinedTicker },
          query: override ? { sendOverride: 'true' } : undefined,
          body: announcement,
        }),
        invalidatesTags: (result, _error, { combinedTicker }) => (result ? changed(combinedTicker) : []),
      }),
      /** Admin: emails the stock's confirmation addresses; the announcement itself does not change. */
      sendConfirmationEmail: mutation(routes.announcements.sendConfirmation, {
        request: ({ combinedTicker, announcement }: AnnouncementArgs) => ({
          params: { combinedTicker },
          body: announcement,
        }),
      }),
      /**
       * Admin: runs the initial poll again. The staff page shows it at once from the answer (its stock is
       * patched locally, spec section 4) and then follows the run by fetching the stock.
       */
      resyncAnnouncements: mutation(routes.announcements.resync, {
        request: (combinedTicker: string) => ({ query: { ticker: combinedTicker } }),
        invalidatesTags: (result, _error, combinedTicker) =>
          result ? [{ type: 'Announcements', id: combinedTicker }] : [],
      }),
    })),
});

export const {
  useListAnnouncementsQuery,
  useSaveAnnouncementMutation,
  useDeleteAnnouncementMutation,
  useSendAnnouncementMutation,
  useSendConfirmationEmailMutation,
  useResyncAnnouncementsMutation,
} = announcementsApi;
