import { Alert, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { formatDateTime, type CommentResponse } from '@irp/proto';
import type { ReactNode } from 'react';

/** Line breaks as the commenter typed them; the comment is always rendered as text, never as HTML. */
const asTyped = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * What the moderator answers (spec section 2, Comment response): the announcement's headline and release
 * date, when the investor asked, their name, email and comment, and why the moderation rules flagged it.
 */
export function CommentDetails({ comment }: { comment: CommentResponse }) {
  const { request, flags } = comment;
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="sm">
        <Stack gap="sm">
          <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }} data-testid="announcement-headline">
            {comment.announcementHeadline}
          </Title>
          <SimpleGrid
            component="dl"
            cols={{ base: 1, xs: 2 }}
            spacing="sm"
            verticalSpacing="xs"
            m={0}
            data-testid="comment-details"
          >
            <Detail label="Released">{formatDateTime(comment.announcementDate)}</Detail>
            <Detail label="Requested">{formatDateTime(comment.created)}</Detail>
            <Detail label="Name">{request.name}</Detail>
            <Detail label="Email">{request.email}</Detail>
          </SimpleGrid>
          <div>
            <Text size="xs" c="dimmed">
              Comment
            </Text>
            <Text size="sm" style={asTyped} data-testid="comment-text">
              {request.comment}
            </Text>
          </div>
        </Stack>
      </Paper>
      {flags.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          title="Flagged for review"
          role="note"
          data-testid="comment-flags"
        >
          <List size="sm" spacing={4}>
            {flags.map((flag, index) => (
              <List.Item key={`${flag.rule}-${index}`}>
                {flag.reason}
                {flag.match && (
                  <Text span size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {` (matched “${flag.match}”)`}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
