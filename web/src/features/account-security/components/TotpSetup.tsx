import { Alert, Button, Center, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useBeginTotpMutation, useConfirmTotpMutation } from '../api/accountSecurityApi';

interface TotpSetupProps {
  /** The app is confirmed; `recoveryCodes` when it was the user's first second factor (show them once). */
  onConfirmed: (recoveryCodes: string[] | undefined) => void;
}

/**
 * Setting up an authenticator app: a new secret (a QR code of its otpauth:// URI, and the key as text to
 * type in), which counts only once a code of the app confirms it.
 */
export function TotpSetup({ onConfirmed }: TotpSetupProps) {
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [beginTotp, { isLoading: starting }] = useBeginTotpMutation();
  const [confirmTotp, { isLoading: confirming }] = useConfirmTotpMutation();

  async function start() {
    setProblem(null);
    try {
      setSetup(await beginTotp().unwrap());
      setCode('');
    } catch (error) {
      setProblem(errorMessageOf(error));
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirming) return;
    setProblem(null);
    let recoveryCodes: string[] | undefined;
    try {
      ({ recoveryCodes } = await confirmTotp({ code: code.replace(/\s/g, '') }).unwrap());
    } catch (error) {
      setProblem(errorMessageOf(error));
      return;
    }
    setSetup(null);
    setCode('');
    onConfirmed(recoveryCodes);
  }

  const failure = problem && (
    <Alert color="red" role="alert">
      {problem}
    </Alert>
  );

  if (!setup)
    return (
      <Stack gap="xs">
        <Button variant="default" onClick={() => void start()} loading={starting} w="fit-content">
          Set up an authenticator app
        </Button>
        {failure}
      </Stack>
    );

  return (
    <form onSubmit={(event) => void confirm(event)} noValidate aria-label="Confirm the authenticator app">
      <Stack gap="xs">
        <Text size="sm">
          Scan the QR code with your authenticator app, or type the key into it. Then enter the code it shows.
        </Text>
        <Center>
          <QRCodeSVG
            value={setup.uri}
            size={168}
            marginSize={2}
            title="QR code for your authenticator app"
            role="img"
          />
        </Center>
        <Text size="sm">
          Key:{' '}
          <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
            {setup.secret}
          </Code>
        </Text>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="Code from the app"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={10}
            disabled={confirming}
            style={{ flex: '1 1 10rem' }}
          />
          <Button type="submit" loading={confirming}>
            Confirm
          </Button>
          <Button variant="default" onClick={() => setSetup(null)} disabled={confirming}>
            Cancel
          </Button>
        </Group>
        {failure}
      </Stack>
    </form>
  );
}
