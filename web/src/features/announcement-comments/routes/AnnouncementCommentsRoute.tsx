import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';

/** Announcement Comments (spec section 2); the screen itself is built by its own issue. */
export function AnnouncementCommentsRoute() {
  const { combinedTicker, sendGuid } = useParams();
  return (
    <Page title="Announcement Comments">
      {combinedTicker && (
        <Text c="dimmed" data-testid="route-param-combinedTicker">
          {combinedTicker}
        </Text>
      )}
      {sendGuid && (
        <Text c="dimmed" data-testid="route-param-sendGuid">
          {sendGuid}
        </Text>
      )}
    </Page>
  );
}
