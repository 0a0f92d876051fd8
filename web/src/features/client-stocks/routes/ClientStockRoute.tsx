import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';

/** Client Stock (spec section 2); the screen itself is built by its own issue. */
export function ClientStockRoute() {
  const { combinedTicker } = useParams();
  return (
    <Page title="Client Stock">
      {combinedTicker && (
        <Text c="dimmed" data-testid="route-param-combinedTicker">
          {combinedTicker}
        </Text>
      )}
    </Page>
  );
}
