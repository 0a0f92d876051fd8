import { Alert, Button, Stack, Switch, Text, Textarea } from '@mantine/core';
import {
  COMMENT_LIMITS,
  COMMENT_TEXTS,
  formatDateTime,
  respondedWarning,
  type CommentResponse,
} from '@irp/proto';
import { useId, useReducer, useState, type FormEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useRespondToCommentMutation } from '../api/commentResponseApi';
import {
  formValuesOf,
  IDLE,
  responseBodyOf,
  submitReducer,
  type ResponseFormValues,
} from '../model/responseForm';

/** Spec section 2: the note beside 'Post publicly'. */
export const POST_PUBLICLY_NOTE =
  "Posted publicly, the comment and your response show under the announcement on the widget. You can remove the comment from public view at any time by toggling this to 'No'.";

/**
 * 'Your response' and 'Post publicly', prefilled from an existing response (with the warning that it was
 * responded to), and Submit: 'Submitting...', then 'Response submitted successfully' or the server's
 * errorMessage under the button (spec sections 2, 4, 8).
 */
export function CommentResponseForm({ comment }: { comment: CommentResponse }) {
  // The form opens with what was saved; a refetch after submitting does not overwrite what is typed.
  const [values, setValues] = useState<ResponseFormValues>(() => formValuesOf(comment));
  const [state, dispatch] = useReducer(submitReducer, IDLE);
  const [respond] = useRespondToCommentMutation();
  const submitting = state.status === 'submitting';
  const noteId = useId();

  function change(patch: Partial<ResponseFormValues>) {
    setValues((current) => ({ ...current, ...patch }));
    dispatch({ type: 'edited' });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    dispatch({ type: 'submit' });
    try {
      await respond(responseBodyOf(comment.guid, values)).unwrap();
      dispatch({ type: 'succeeded' });
    } catch (error) {
      dispatch({ type: 'failed', errorMessage: errorMessageOf(error) });
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Response">
      <Stack gap="md">
        {comment.response && (
          <Alert color="yellow" variant="light" role="note" data-testid="responded-warning">
            {respondedWarning(formatDateTime(comment.response.date))}
          </Alert>
        )}
        <Textarea
          label="Your response"
          rows={10}
          maxLength={COMMENT_LIMITS.response}
          description={`${values.comment.length} of ${COMMENT_LIMITS.response} characters`}
          value={values.comment}
          readOnly={submitting}
          onChange={(event) => change({ comment: event.currentTarget.value })}
        />
        <Stack gap={4}>
          <Switch
            label="Post publicly"
            // The track reads Yes or No (spec section 2: the note names 'No').
            onLabel="Yes"
            offLabel="No"
            size="md"
            checked={values.isPublic}
            disabled={submitting}
            aria-describedby={noteId}
            onChange={(event) => change({ isPublic: event.currentTarget.checked })}
          />
          <Text id={noteId} size="xs" c="dimmed">
            {POST_PUBLICLY_NOTE}
          </Text>
        </Stack>
        <Stack gap={6} align="flex-start">
          <Button type="submit" disabled={submitting}>
            {submitting ? COMMENT_TEXTS.submitting : 'Submit'}
          </Button>
          {state.status === 'success' && (
            <Text size="sm" c="green.8" role="status">
              {COMMENT_TEXTS.submitted}
            </Text>
          )}
          {state.status === 'error' && (
            <Text size="sm" c="red.7" role="alert" style={{ overflowWrap: 'anywhere' }}>
              {state.errorMessage}
            </Text>
          )}
        </Stack>
      </Stack>
    </form>
  );
}
