import { baseApi } from '@/api/baseApi';
import type { BodyOf } from '@/api/route';
import { routeEndpoints } from '@/api/routeEndpoints';
import { routes } from '@/api/routes';

/**
 * 'CommentResponse' (one per comment guid) is this feature's. A submitted response also changes the comment
 * groups of the announcement-comments feature ('CommentGroups', one per combinedTicker): shared by name,
 * never by import (web/README.md).
 */
const commentResponseTaggedApi = baseApi.enhanceEndpoints({
  addTagTypes: ['CommentResponse', 'CommentGroups'],
});

/** The comment response calls of spec section 7 (docs/api/announcements.md), declared from proto's table. */
export const commentResponseApi = commentResponseTaggedApi.injectEndpoints({
  endpoints: (build) =>
    routeEndpoints(build, ({ query, mutation }) => ({
      /** GET /api/AnnouncementCommentResponse/{guid}: 404 'Comment not found', 403 without ReplyToComment. */
      commentResponse: query(routes.announcements.commentResponse, {
        request: (guid: string) => ({ params: { guid } }),
        providesTags: (_result, _error, guid) => [{ type: 'CommentResponse', id: guid }],
      }),
      /** POST /api/AnnouncementCommentResponse/{guid} (guid, comment, isPublic): answers the comment as saved. */
      respondToComment: mutation(routes.announcements.respondToComment, {
        request: (body: BodyOf<typeof routes.announcements.respondToComment>) => ({
          params: { guid: body.guid },
          body,
        }),
        invalidatesTags: (result, _error, body) =>
          result
            ? [
                { type: 'CommentResponse', id: body.guid },
                { type: 'CommentGroups', id: result.comment.combinedTicker },
              ]
            : [],
      }),
    })),
});

export const { useCommentResponseQuery, useRespondToCommentMutation } = commentResponseApi;
