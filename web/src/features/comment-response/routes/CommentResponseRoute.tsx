import { Alert, Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { useCommentResponseQuery } from '../api/commentResponseApi';
import { CommentDetails } from '../components/CommentDetails';
import { CommentResponseForm } from '../components/CommentResponseForm';

/** /AnnouncementCommentResponse/{guid} (spec section 2): a moderator's response to one comment. */
export function CommentResponseRoute() {
  const { guid = '' } = useParams();
  // currentData: another comment's guid never shows the previous comment while it loads.
  const { currentData: comment, error } = useCommentResponseQuery(guid, { skip: !guid });

  return (
    <Page title="Comment Response">
      {/* The comment's id, as the moderation email's link names it; also while it loads or fails. */}
      <Text size="xs" c="dimmed" data-testid="route-param-guid" style={{ overflowWrap: 'anywhere' }}>
        Comment {guid}
      </Text>
      {comment ? (
        <Stack gap="md" maw={760}>
          <Anchor
            component={Link}
            to={`/AnnouncementComments/${comment.combinedTicker}/${comment.sendGuid}`}
            size="sm"
            w="fit-content"
          >
            ← Comments on this announcement ({comment.combinedTicker})
          </Anchor>
          <CommentDetails comment={comment} />
          {/* Keyed by guid: the form's draft belongs to one comment. */}
          <CommentResponseForm key={comment.guid} comment={comment} />
        </Stack>
      ) : error ? (
        <Alert color="red" role="alert" title="Unable to load the comment">
          {errorMessageOf(error)}
        </Alert>
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading comment" />
        </Center>
      )}
    </Page>
  );
}
