import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { createPasskey, passkeyErrorMessage } from '@/lib/passkeys';
import { useAddPasskeyMutation, usePasskeyOptionsMutation } from '../api/accountSecurityApi';

export const DEFAULT_PASSKEY_NAME = 'This device';

interface AddPasskeyFormProps {
  /** The passkey is saved; `recoveryCodes` when it was the user's first second factor (show them once). */
  onAdded: (recoveryCodes: string[] | undefined) => void;
}

/**
 * 'Add passkey': the server's creation options, the browser's passkey prompt, then the new passkey under
 * the name the user gave it (to tell their devices apart in the list).
 */
export function AddPasskeyForm({ onAdded }: AddPasskeyFormProps) {
  const [name, setName] = useState(DEFAULT_PASSKEY_NAME);
  const [problem, setProblem] = useState<string | null>(null);
  const [prompting, setPrompting] = useState(false);
  const [passkeyOptions, { isLoading: loadingOptions }] = usePasskeyOptionsMutation();
  const [addPasskey, { isLoading: saving }] = useAddPasskeyMutation();
  const busy = loadingOptions || prompting || saving;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setProblem(null);
    let recoveryCodes: string[] | undefined;
    try {
      const { options } = await passkeyOptions().unwrap();
      setPrompting(true);
      let response: Record<string, unknown>;
      try {
        response = await createPasskey(options);
      } finally {
        setPrompting(false);
      }
      ({ recoveryCodes } = await addPasskey({ name: name.trim(), response }).unwrap());
    } catch (error) {
      setProblem(passkeyErrorMessage(error));
      return;
    }
    setName(DEFAULT_PASSKEY_NAME);
    onAdded(recoveryCodes);
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Add a passkey">
      <Stack gap="xs">
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="Passkey name"
            description="To tell your devices apart"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={60}
            disabled={busy}
            style={{ flex: '1 1 12rem' }}
          />
          <Button type="submit" loading={busy}>
            Add passkey
          </Button>
        </Group>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
