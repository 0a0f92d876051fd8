import { Alert, Button, Loader, Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { useSubscriptionQuery, useUnsubscribeMutation } from '../api/subscriptionsApi';

/**
 * The visible unsubscribe link of every subscriber mail: says which company's announcements it stops (not
 * the address: a forwarded mail's link must not tell whose it was), then one click unsubscribes.
 */
export function UnsubscribeRoute() {
  const { token = '' } = useParams();
  const subscription = useSubscriptionQuery(token);
  const [unsubscribe, result] = useUnsubscribeMutation();
  const who = result.data ?? subscription.data;
  const done = result.data?.status === 'unsubscribed' || subscription.data?.status === 'unsubscribed';

  return (
    <Page title="Unsubscribe">
      {subscription.isLoading && <Loader aria-label="Loading" />}
      {subscription.error && (
        <Alert color="red" role="alert">
          {errorMessageOf(subscription.error)}
        </Alert>
      )}
      {who && !done && (
        <>
          <Text>
            Stop sending the announcements of {who.companyName || who.combinedTicker} to this address?
          </Text>
          <div>
            <Button color="red" loading={result.isLoading} onClick={() => void unsubscribe(token)}>
              Unsubscribe
            </Button>
          </div>
        </>
      )}
      {who && done && (
        <Alert color="green" role="status">
          {who.message || 'You are unsubscribed.'}
        </Alert>
      )}
      {result.error && (
        <Alert color="red" role="alert">
          {errorMessageOf(result.error)}
        </Alert>
      )}
    </Page>
  );
}
