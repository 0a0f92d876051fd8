import { Alert } from '@mantine/core';
import { Page } from './Page';

/** Shown instead of a screen the signed-in user's roles do not allow. */
export function NotAllowed() {
  return (
    <Page title="Not allowed">
      <Alert color="red" role="alert">
        You are not allowed to view this page.
      </Alert>
    </Page>
  );
}
