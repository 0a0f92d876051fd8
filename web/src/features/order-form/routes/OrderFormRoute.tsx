import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';

/** Order Form (spec section 2); the screen itself is built by its own issue. */
export function OrderFormRoute() {
  const { id } = useParams();
  return (
    <Page title="Order Form">
      {id && (
        <Text c="dimmed" data-testid="route-param-id">
          {id}
        </Text>
      )}
    </Page>
  );
}
