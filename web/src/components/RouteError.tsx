import { Button, Center, Stack, Text, Title } from '@mantine/core';

/** The router's error screen: a render error or a failed chunk download (e.g. after a deploy). */
export function RouteError() {
  return (
    <Center h="100dvh">
      <Stack align="center" gap="sm">
        <Title order={2}>Something went wrong</Title>
        <Text c="dimmed">Reloading the page usually fixes it.</Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
