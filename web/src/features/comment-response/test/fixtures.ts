import type { CommentResponse } from '@irp/proto';
import { routes } from '@/api/routes';
import { routePath } from '@/test/fakeApi';

export const COMMENT_GUID = 'c1c2c3c4-0000-4000-8000-000000000001';
export const SEND_GUID = 'a1a2a3a4-0000-4000-8000-000000000002';
export const RESPONSE_PATH = routePath(routes.announcements.commentResponse, { guid: COMMENT_GUID });

/** A comment as GET /api/AnnouncementCommentResponse/{guid} answers it: not yet responded to. */
export function commentResponse(overrides: Partial<CommentResponse> = {}): CommentResponse {
  return {
    guid: COMMENT_GUID,
    combinedTicker: 'BHP:ASX',
    sendGuid: SEND_GUID,
    announcementHeadline: 'Quarterly Activities Report',
    announcementDate: '2025-03-21T21:50:00.000Z',
    created: '2025-03-22T01:15:00.000Z',
    isPublic: false,
    request: { name: 'Jane Investor', email: 'jane@investor.example', comment: 'When is the next dividend?' },
    response: null,
    flags: [],
    ...overrides,
  };
}
