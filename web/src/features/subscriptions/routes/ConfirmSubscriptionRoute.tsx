import { Alert, Loader, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { useConfirmSubscriptionMutation } from '../api/subscriptionsApi';

/**
 * The confirmation link of the double opt-in mail: confirms on opening (a page script, so link scanners
 * that only fetch the page confirm nothing), once.
 */
export function ConfirmSubscriptionRoute() {
  const { token = '' } = useParams();
  const [confirm, { data, error, isUninitialized, isLoading }] = useConfirmSubscriptionMutation();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void confirm(token);
  }, [confirm, token]);

  return (
    <Page title="Confirm subscription">
      {(isUninitialized || isLoading) && <Loader aria-label="Confirming" />}
      {data && (
        <Alert color="green" role="status" title={data.message}>
          <Text size="sm">
            {data.email} will receive the announcements of {data.companyName || data.combinedTicker} by email.
            Every email has a link to unsubscribe.
          </Text>
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {errorMessageOf(error)}
        </Alert>
      )}
    </Page>
  );
}
