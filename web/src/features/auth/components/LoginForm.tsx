import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useLoginMutation } from '@/lib/session/sessionApi';

interface LoginFormProps {
  /** Called once the session user is in the store. */
  onSuccess: () => void;
}

/**
 * Spec section 2 (Login) and 4: idle, busy (inputs and button disabled, spinner), then success or
 * 'Invalid username/password' with the form unlocked. No client-side checks (spec section 5).
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const [login, { isLoading: busy }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [failed, setFailed] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setFailed(false);
    try {
      await login({ username, password }).unwrap();
    } catch {
      setFailed(true);
      return;
    }
    onSuccess();
  }

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
        {failed && (
          <Alert color="red" role="alert" variant="light">
            Invalid username/password
          </Alert>
        )}
        <Button type="submit" loading={busy} disabled={busy} fullWidth>
          Login
        </Button>
      </Stack>
    </form>
  );
}
