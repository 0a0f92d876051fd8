import { Center, Loader } from '@mantine/core';

/** A full-height centred loader, e.g. while the session is restored on start. */
export function CenteredLoader() {
  return (
    <Center h="100dvh" data-testid="app-loader">
      <Loader aria-label="Loading" />
    </Center>
  );
}
