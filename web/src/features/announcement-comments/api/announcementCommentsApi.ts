import { baseApi } from '@/api/baseApi';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

export interface CommentGroupsArgs {
  combinedTicker: string;
  /** Narrows the groups to this announcement's (sent as `announcementGuid`); all of the ticker's without. */
  sendGuid?: string;
}

/**
 * 'CommentGroups' (one per combinedTicker) is this feature's. The response page (feature comment-response)
 * invalidates it by name when a response is submitted, never by import (web/README.md).
 */
const commentsTaggedApi = baseApi.enhanceEndpoints({ addTagTypes: ['CommentGroups'] });

/** The comment calls of spec section 7 the comments screens make (docs/api/announcements.md). */
export const announcementCommentsApi = commentsTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query }) => ({
      /** GET /api/AnnouncementComments/?combinedTicker&announcementGuid: newest announcement first. */
      commentGroups: query(routes.announcements.comments, {
        request: ({ combinedTicker, sendGuid }: CommentGroupsArgs) => ({
          query: sendGuid ? { combinedTicker, announcementGuid: sendGuid } : { combinedTicker },
        }),
        providesTags: (_result, _error, { combinedTicker }) => [
          { type: 'CommentGroups', id: combinedTicker },
        ],
      }),
    })),
});

export const { useCommentGroupsQuery } = announcementCommentsApi;
