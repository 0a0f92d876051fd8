import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { CAMPAIGN_CREATED_MESSAGE, TEST_SENT_MESSAGE } from '@irp/proto';
import { useState } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import {
  useSendTestEmailMutation,
  useSendToSubscribersMutation,
  type TestSendMode,
} from '../api/emailMarketingApi';
import {
  confirmSendText,
  missingKeysProblem,
  SEND_TO_SUBSCRIBERS_NOTE,
  testSendBodyOf,
  type EmailMarketingFormValues,
} from '../model/emailMarketingForm';

export const SEND_LABELS: Record<TestSendMode, string> = {
  test: 'Send Test Email',
  subscribers: 'Send To Subscribers',
};

type SendResult = { ok: true; text: string; previewUrl: string | null } | { ok: false; text: string };

interface SendActionsProps {
  stockId: string;
  /** The stock's product API key (spec section 5: both keys are needed to send). */
  /** Undefined when the user may not see it (no ViewConfig on the stock): the server checks it then. */
  productApiKey: string | null | undefined;
  values: EmailMarketingFormValues;
  canTestSend: boolean;
  /** Admins only (spec section 6). */
  canSendToSubscribers: boolean;
}

/**
 * Send Test Email and Send To Subscribers with the settings as typed: both keys first (else the spec's
 * message and no call), then a confirmation, then the server's message with the campaign's preview link,
 * or its errorMessage.
 */
export function SendActions({
  stockId,
  productApiKey,
  values,
  canTestSend,
  canSendToSubscribers,
}: SendActionsProps) {
  // The mode asked about stays while the modal closes, so its text does not change during the transition.
  const [asked, setAsked] = useState<TestSendMode>('test');
  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState<TestSendMode | null>(null);
  const [result, setResult] = useState<SendResult | null>(null);
  const [sendTestEmail] = useSendTestEmailMutation();
  const [sendToSubscribers] = useSendToSubscribersMutation();

  if (!canTestSend && !canSendToSubscribers) return null;

  function ask(mode: TestSendMode) {
    const problem = missingKeysProblem(productApiKey, values);
    setResult(problem ? { ok: false, text: problem } : null);
    if (problem) return;
    setAsked(mode);
    setConfirming(true);
  }

  async function send(mode: TestSendMode) {
    setConfirming(false);
    setSending(mode);
    try {
      const body = testSendBodyOf({ id: stockId, productApiKey }, values);
      const answer = await (mode === 'test' ? sendTestEmail(body) : sendToSubscribers(body)).unwrap();
      setResult(
        answer.errorMessage
          ? { ok: false, text: answer.errorMessage }
          : {
              ok: true,
              text: answer.message ?? (mode === 'test' ? TEST_SENT_MESSAGE : CAMPAIGN_CREATED_MESSAGE),
              previewUrl: answer.previewUrl,
            },
      );
    } catch (error) {
      setResult({ ok: false, text: errorMessageOf(error) });
    } finally {
      setSending(null);
    }
  }

  const button = (mode: TestSendMode) => (
    <Button
      variant="default"
      onClick={() => ask(mode)}
      loading={sending === mode}
      disabled={sending !== null && sending !== mode}
    >
      {SEND_LABELS[mode]}
    </Button>
  );

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-start" wrap="wrap">
        {canTestSend && button('test')}
        {canSendToSubscribers && (
          <Stack gap={4} maw={360}>
            {button('subscribers')}
            <Text size="xs" c="dimmed">
              {SEND_TO_SUBSCRIBERS_NOTE}
            </Text>
          </Stack>
        )}
      </Group>
      {result?.ok === true && (
        <Alert color="green" role="status" data-testid="send-result">
          <Group gap="xs" wrap="wrap">
            <span>{result.text}</span>
            {result.previewUrl && (
              <Anchor href={result.previewUrl} target="_blank" rel="noopener noreferrer">
                Preview
              </Anchor>
            )}
          </Group>
        </Alert>
      )}
      {result?.ok === false && (
        <Alert color="red" role="alert" data-testid="send-result">
          {result.text}
        </Alert>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={SEND_LABELS[asked]} centered>
        <Stack gap="md">
          <Text style={{ overflowWrap: 'anywhere' }}>{confirmSendText(asked, values)}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={() => void send(asked)}>Send</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
