import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { AnnouncementComments } from '../components/AnnouncementComments';
import { commentsPath } from '../model/comments';

/**
 * /AnnouncementComments/{ticker:exchange}/{sendGuid} (spec section 2): the ticker's comments, or with the
 * sendGuid only that announcement's, with a link back to all of them.
 */
export function AnnouncementCommentsRoute() {
  const { combinedTicker = '', sendGuid } = useParams();
  return (
    <Page title="Announcement Comments">
      <Stack gap={4}>
        <Title order={3} data-testid="route-param-combinedTicker">
          {combinedTicker}
        </Title>
        {sendGuid && (
          <>
            <Anchor component={Link} to={commentsPath(combinedTicker)} size="sm" w="fit-content">
              All comments for {combinedTicker}
            </Anchor>
            {/* Which announcement the address names, also while its comments load or when it has none. */}
            <Text
              size="xs"
              c="dimmed"
              data-testid="route-param-sendGuid"
              style={{ overflowWrap: 'anywhere' }}
            >
              Announcement {sendGuid}
            </Text>
          </>
        )}
      </Stack>
      {combinedTicker && <AnnouncementComments combinedTicker={combinedTicker} sendGuid={sendGuid} />}
    </Page>
  );
}
