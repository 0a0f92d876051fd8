import { Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useSubscriberCountQuery } from '../api/emailMarketingApi';
import {
  isNewApiKey,
  subscriberCountArgsOf,
  subscriberCountText,
  type EmailMarketingFormValues,
} from '../model/emailMarketingForm';

/** How long the key, list and client fields must rest before the count is asked again. */
export const SUBSCRIBER_COUNT_DEBOUNCE_MS = 600;

interface SubscriberCountProps {
  stockId: string;
  values: EmailMarketingFormValues;
}

/**
 * The list's subscriber count beside the API key (spec section 2), asked with the stored key (the key never
 * goes in the count's URL) and the list, provider type and client ID as typed: on load, then whenever they
 * settle; a new key typed here is counted once saved. A failure shows its message in red.
 */
export function SubscriberCount({ stockId, values }: SubscriberCountProps) {
  const { provider, apiKey, listId, clientId } = values;
  const args = useMemo(
    () => subscriberCountArgsOf(stockId, { provider, apiKey, listId, clientId }),
    [stockId, provider, apiKey, listId, clientId],
  );
  const [settled] = useDebouncedValue(args, SUBSCRIBER_COUNT_DEBOUNCE_MS);
  const { currentData, error, isFetching } = useSubscriberCountQuery(settled ?? skipToken);

  // Rendered inside the API key's description (a paragraph): phrasing content only.
  if (!settled) {
    if (isNewApiKey(apiKey) && listId.trim())
      return (
        <Text span inherit data-testid="subscriber-count">
          Save to see the subscriber count with the new API key
        </Text>
      );
    return (
      <Text span inherit data-testid="subscriber-count">
        Enter the API key and list ID to see the subscriber count
      </Text>
    );
  }
  if (isFetching && !currentData) {
    return (
      <Group component="span" gap={6} wrap="nowrap" data-testid="subscriber-count">
        <Loader size={12} aria-hidden />
        <span>Counting subscribers…</span>
      </Group>
    );
  }
  const failure = error
    ? errorMessageOf(error)
    : currentData && !currentData.success
      ? currentData.message
      : null;
  if (failure !== null) {
    return (
      <Text span size="sm" c="red" role="alert" data-testid="subscriber-count">
        {failure}
      </Text>
    );
  }
  if (!currentData) return null;
  return (
    <Text span size="sm" fw={500} c="var(--mantine-color-text)" data-testid="subscriber-count">
      {subscriberCountText(currentData.count ?? 0)}
    </Text>
  );
}
