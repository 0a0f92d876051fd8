import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';

/** Report (spec section 2); the screen itself is built by its own issue. */
export function ReportRoute() {
  const { guid } = useParams();
  return (
    <Page title="Report">
      {guid && (
        <Text c="dimmed" data-testid="route-param-guid">
          {guid}
        </Text>
      )}
    </Page>
  );
}
