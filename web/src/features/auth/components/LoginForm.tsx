import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { SecondFactorMethod } from '@irp/proto';
import { useState, type FormEvent } from 'react';
import { useLoginMutation } from '@/lib/session/sessionApi';
import { secondFactorMethodsOf } from '../model/secondFactor';
import { SecondFactorStep } from './SecondFactorStep';

export const INVALID_LOGIN = 'Invalid username/password';

interface LoginFormProps {
  /** Called once the session user is in the store. */
  onSuccess: () => void;
}

/**
 * Spec section 2 (Login) and 4: idle, busy (inputs and button disabled, spinner), then success or
 * 'Invalid username/password' with the form unlocked. No client-side checks (spec section 5). A user with a
 * second factor then confirms it is them (issue 34: `SecondFactorStep`) before the session starts.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const [login, { isLoading: busy }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [secondFactor, setSecondFactor] = useState<readonly SecondFactorMethod[] | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    try {
      await login({ username, password }).unwrap();
    } catch (error) {
      const methods = secondFactorMethodsOf(error);
      if (methods) {
        // The password did its part (the server holds it as a ticket cookie): not kept here any longer.
        setPassword('');
        setSecondFactor(methods);
      } else setFailure(INVALID_LOGIN);
      return;
    }
    onSuccess();
  }

  if (secondFactor)
    return (
      <SecondFactorStep
        methods={secondFactor}
        onSuccess={onSuccess}
        onRestart={(reason) => {
          setSecondFactor(null);
          setFailure(reason);
          if (!reason) setUsername('');
        }}
      />
    );

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Login">
      <Stack gap="md">
        <TextInput
          label="Username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.currentTarget.value)}
          disabled={busy}
          data-autofocus
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          disabled={busy}
        />
        {failure && (
          <Alert color="red" role="alert" variant="light">
            {failure}
          </Alert>
        )}
        <Button type="submit" loading={busy} disabled={busy} fullWidth>
          Login
        </Button>
      </Stack>
    </form>
  );
}
