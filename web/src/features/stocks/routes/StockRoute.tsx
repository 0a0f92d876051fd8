import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';

/** Stock (spec section 2); the screen itself is built by its own issue. */
export function StockRoute() {
  const { combinedTicker, tab } = useParams();
  return (
    <Page title="Stock">
      {combinedTicker && (
        <Text c="dimmed" data-testid="route-param-combinedTicker">
          {combinedTicker}
        </Text>
      )}
      {tab && (
        <Text c="dimmed" data-testid="route-param-tab">
          {tab}
        </Text>
      )}
    </Page>
  );
}
