import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';

/** Edit User (spec section 2); the screen itself is built by its own issue. */
export function EditUserRoute() {
  const { id } = useParams();
  return (
    <Page title="Edit User">
      {id && (
        <Text c="dimmed" data-testid="route-param-id">
          {id}
        </Text>
      )}
    </Page>
  );
}
