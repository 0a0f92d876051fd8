import { Alert, Button, Group, TextInput } from '@mantine/core';
import { AnnouncementMessages } from '@irp/proto';
import { useState } from 'react';
import { Section } from '@/components/Section';
import { errorMessageOf } from '@/lib/apiError';
import { useSendTestEmailMutation } from '../api/systemSettingsApi';

export const confirmTestEmail = (email: string) => `Send a test email to ${email}?`;

/** Test email (spec section 5: confirmed first): checks that the portal's email sending works. */
export function TestEmailSection() {
  const [email, setEmail] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [send, { isLoading }] = useSendTestEmailMutation();

  async function sendTestEmail() {
    const address = email.trim();
    if (!window.confirm(confirmTestEmail(address))) return;
    setResult(null);
    try {
      await send({ email: address }).unwrap();
      setResult({ ok: true, text: AnnouncementMessages.sent });
    } catch (error) {
      setResult({ ok: false, text: errorMessageOf(error) });
    }
  }

  return (
    <Section
      title="Test email"
      description="Sends a test email to check that the portal's email sending works."
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Email address"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          style={{ flex: '1 1 16rem' }}
        />
        <Button onClick={() => void sendTestEmail()} loading={isLoading} disabled={!email.trim()}>
          Send Test Email
        </Button>
      </Group>
      {result && (
        <Alert color={result.ok ? 'green' : 'red'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </Alert>
      )}
    </Section>
  );
}
