import { Alert, Anchor, Badge, Center, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { COMMENT_TEXTS, formatDateTime, type CommentGroup, type CommentGroupItem } from '@irp/proto';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { errorMessageOf } from '@/lib/apiError';
import { useCommentGroupsQuery } from '../api/announcementCommentsApi';
import {
  commentGroupsLabel,
  commentsPath,
  firstResponseOf,
  flagReasonsOf,
  responsePath,
} from '../model/comments';

/** Line breaks as the commenter typed them; the text itself is always rendered as text, never as HTML. */
const asTyped = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** The comment, whether it shows on the widget, and (when flagged) why the moderation rules flagged it. */
function CommentCell({ item }: { item: CommentGroupItem }) {
  const reasons = flagReasonsOf(item);
  return (
    <Stack gap={4}>
      <Text size="sm" style={asTyped}>
        {item.comment}
      </Text>
      <Group gap={4}>
        <Badge variant="light" color={item.isPublic ? 'teal' : 'gray'} size="sm">
          {item.isPublic ? 'Public' : 'Not public'}
        </Badge>
        {reasons.length > 0 && (
          <Badge variant="filled" color="red" size="sm">
            Flagged
          </Badge>
        )}
      </Group>
      {reasons.length > 0 && (
        <List size="xs" c="red.8" spacing={2} aria-label="Flag reasons" data-testid="flag-reasons">
          {reasons.map((reason) => (
            <List.Item key={reason}>{reason}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

const COLUMNS: readonly DataColumn<CommentGroupItem>[] = [
  {
    label: 'Edit',
    nowrap: true,
    render: (item) => (
      <Anchor component={Link} to={responsePath(item)} size="sm" aria-label={`Edit response to ${item.name}`}>
        Edit
      </Anchor>
    ),
  },
  { label: 'Date', nowrap: true, render: (item) => formatDateTime(item.date) },
  { label: 'Name', render: (item) => item.name },
  { label: 'Comment', render: (item) => <CommentCell item={item} /> },
  {
    label: 'Response',
    render: (item) => {
      const response = firstResponseOf(item);
      return response === null ? (
        <Text span size="sm" c="dimmed" fs="italic">
          No response yet
        </Text>
      ) : (
        <Text span size="sm" style={asTyped}>
          {response}
        </Text>
      );
    },
  },
];

interface CommentGroupSectionProps {
  combinedTicker: string;
  group: CommentGroup;
  /** The headline links to the screen of this announcement's comments alone (not when already there). */
  linkHeadline: boolean;
}

/** One announcement's comments: its headline and release date, then the comments table (cards on phones). */
function CommentGroupSection({ combinedTicker, group, linkHeadline }: CommentGroupSectionProps) {
  const headingId = useId();
  return (
    <Stack component="section" gap="xs" aria-labelledby={headingId} data-testid="comment-group">
      <div>
        <Title order={3} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {linkHeadline ? (
            <Anchor component={Link} to={commentsPath(combinedTicker, group.sendGuid)} inherit>
              {group.announcementHeadline}
            </Anchor>
          ) : (
            group.announcementHeadline
          )}
        </Title>
        <Text size="sm" c="dimmed">
          Released {formatDateTime(group.announcementDate)}
        </Text>
      </div>
      <DataTable
        label={`Comments on ${group.announcementHeadline}`}
        columns={COLUMNS}
        rows={group.comments}
        rowKey={(item) => item.announcementCommentEventGuid}
        empty="No comments on this announcement yet."
        minWidth={720}
      />
    </Stack>
  );
}

interface AnnouncementCommentsProps {
  combinedTicker: string;
  /** Only this announcement's comment group (the total still counts all of the ticker's). */
  sendGuid?: string;
}

/**
 * Announcement comments (spec section 2): the note on what comments are for, the ticker's number of comment
 * groups, and per announcement its headline and a table with an [Edit] link to the response page, date,
 * name, comment (flags and whether it is public) and the first response. Also the client page's Comments tab.
 */
export function AnnouncementComments({ combinedTicker, sendGuid }: AnnouncementCommentsProps) {
  // currentData: moving between one announcement's comments and all of them never shows the other's.
  const { currentData: result, error } = useCommentGroupsQuery({ combinedTicker, sendGuid });

  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed" maw={760}>
        {COMMENT_TEXTS.widgetNote}
      </Text>
      {error ? (
        <Alert color="red" role="alert" title="Unable to load the comments">
          {errorMessageOf(error)}
        </Alert>
      ) : !result ? (
        <Center py="xl">
          <Loader aria-label="Loading comments" />
        </Center>
      ) : (
        <>
          <Text fw={600} data-testid="comment-groups-total">
            {commentGroupsLabel(result.totalCommentGroups)}
          </Text>
          {result.commentGroups.length === 0 ? (
            <Text c="dimmed">
              {sendGuid ? 'No comments on this announcement yet.' : `No comments for ${combinedTicker} yet.`}
            </Text>
          ) : (
            result.commentGroups.map((group) => (
              <CommentGroupSection
                key={group.sendGuid}
                combinedTicker={combinedTicker}
                group={group}
                linkHeadline={!sendGuid}
              />
            ))
          )}
        </>
      )}
    </Stack>
  );
}
