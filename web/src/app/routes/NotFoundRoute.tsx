import { Anchor, Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router-dom';

/** Any path no route matches (spec section 2). */
export function NotFoundRoute() {
  useDocumentTitle('Page not found · IR Portal');
  return (
    <Stack align="center" gap="sm" py="xl">
      <Title order={2}>Page not found!</Title>
      <Anchor component={Link} to="/">
        Go to the home page
      </Anchor>
    </Stack>
  );
}
