import type { CommentResponse, CommentResponseBody } from '@irp/proto';

/** What the response form holds: 'Your response' and 'Post publicly'. */
export interface ResponseFormValues {
  comment: string;
  isPublic: boolean;
}

/** The form as the page opens: the existing response and the comment's visibility (spec section 2). */
export const formValuesOf = (
  comment: Pick<CommentResponse, 'response' | 'isPublic'>,
): ResponseFormValues => ({
  comment: comment.response?.comment ?? '',
  isPublic: comment.isPublic,
});

/** The body of POST /api/AnnouncementCommentResponse/{guid} (spec section 7: guid, comment, isPublic). */
export const responseBodyOf = (guid: string, values: ResponseFormValues): CommentResponseBody => ({
  guid,
  comment: values.comment,
  isPublic: values.isPublic,
});

/** Comment response (spec section 4): idle, submitting, then success or error. */
export type SubmitState =
  | { status: 'idle' }
  | { status: 'submitting' }
  | { status: 'success' }
  | { status: 'error'; errorMessage: string };

export type SubmitEvent =
  | { type: 'submit' }
  | { type: 'succeeded' }
  | { type: 'failed'; errorMessage: string }
  /** The form changed: the last outcome no longer describes what it shows. */
  | { type: 'edited' };

export const IDLE: SubmitState = { status: 'idle' };

export function submitReducer(state: SubmitState, event: SubmitEvent): SubmitState {
  switch (event.type) {
    case 'submit':
      // One submit at a time.
      return state.status === 'submitting' ? state : { status: 'submitting' };
    case 'succeeded':
      return state.status === 'submitting' ? { status: 'success' } : state;
    case 'failed':
      return state.status === 'submitting' ? { status: 'error', errorMessage: event.errorMessage } : state;
    case 'edited':
      return state.status === 'success' || state.status === 'error' ? IDLE : state;
  }
}
