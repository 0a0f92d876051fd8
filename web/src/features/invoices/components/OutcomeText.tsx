import { Alert } from '@mantine/core';

/** What a save on the tab came to, shown under it. */
export type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

export function OutcomeText({ outcome, testId }: { outcome: Outcome; testId: string }) {
  if (!outcome) return null;
  return (
    <Alert color={outcome.ok ? 'green' : 'red'} role={outcome.ok ? 'status' : 'alert'} data-testid={testId}>
      {outcome.text}
    </Alert>
  );
}
