import { Alert, Anchor, Button, Group, Loader, Radio, Select, Stack, Text } from '@mantine/core';
import {
  formatDate,
  PAUSE_WEEKS_CHOICES,
  SUBSCRIPTION_PREFERENCE_LABELS,
  type SubscriptionPreference,
} from '@irp/proto';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { usePreferencesQuery, useSavePreferencesMutation } from '../api/subscriptionsApi';

const PREFERENCES = Object.keys(SUBSCRIPTION_PREFERENCE_LABELS) as SubscriptionPreference[];

/** The pause choices: keep it as it is, a number of weeks, or (when paused) resume now. */
const KEEP = 'keep';
const RESUME = '0';
const pauseOptions = (paused: boolean) => [
  { value: KEEP, label: paused ? 'Stay paused as it is' : "Don't pause" },
  ...(paused ? [{ value: RESUME, label: 'Resume the mails now' }] : []),
  ...PAUSE_WEEKS_CHOICES.map((w) => ({ value: String(w), label: `Pause for ${w} week${w > 1 ? 's' : ''}` })),
];

/**
 * The preference page of every subscriber mail (issue 36), no sign-in: which company the link is for (never
 * the address), what to be mailed (every announcement or the price-sensitive ones only) and a pause of some
 * weeks. Saving applies to the next send; unsubscribing is the page next to it.
 */
export function PreferencesRoute() {
  const { token = '' } = useParams();
  const current = usePreferencesQuery(token);
  const [save, saved] = useSavePreferencesMutation();
  const who = saved.data ?? current.data;
  const [preference, setPreference] = useState<SubscriptionPreference>('all');
  const [pause, setPause] = useState(KEEP);
  useEffect(() => {
    if (who) setPreference(who.preference);
    setPause(KEEP);
  }, [who]);

  const unsubscribed = who?.status === 'unsubscribed';
  return (
    <Page title="Your email preferences">
      {current.isLoading && <Loader aria-label="Loading" />}
      {current.error && (
        <Alert color="red" role="alert">
          {errorMessageOf(current.error)}
        </Alert>
      )}
      {who && unsubscribed && (
        <Alert color="yellow" role="status">
          This address is unsubscribed from the announcements of {who.companyName || who.combinedTicker}:
          subscribe again on the company's website to choose what you receive.
        </Alert>
      )}
      {who && !unsubscribed && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save({ token, preference, ...(pause === KEEP ? {} : { pauseWeeks: Number(pause) }) });
          }}
        >
          <Stack gap="md" maw={520}>
            <Text>
              The announcements of {who.companyName || who.combinedTicker} by email: choose what you receive.
            </Text>
            <Radio.Group
              label="Send me"
              value={preference}
              onChange={(v) => setPreference(v as SubscriptionPreference)}
            >
              <Stack gap="xs" mt="xs">
                {PREFERENCES.map((p) => (
                  <Radio key={p} value={p} label={SUBSCRIPTION_PREFERENCE_LABELS[p]} />
                ))}
              </Stack>
            </Radio.Group>
            {who.pausedUntil && (
              <Text size="sm" data-testid="paused-until">
                Paused: no mail until {formatDate(who.pausedUntil)}.
              </Text>
            )}
            <Select
              label="Pause"
              data={pauseOptions(!!who.pausedUntil)}
              value={pause}
              onChange={(v) => setPause(v ?? KEEP)}
              allowDeselect={false}
              maw={320}
            />
            <Group gap="md" wrap="wrap">
              <Button type="submit" loading={saved.isLoading}>
                Save
              </Button>
              <Anchor component={Link} to={`/subscription/unsubscribe/${token}`} size="sm">
                Unsubscribe instead
              </Anchor>
            </Group>
            {saved.data && (
              <Alert color="green" role="status">
                {saved.data.message}
              </Alert>
            )}
            {saved.error && (
              <Alert color="red" role="alert">
                {errorMessageOf(saved.error)}
              </Alert>
            )}
          </Stack>
        </form>
      )}
    </Page>
  );
}
