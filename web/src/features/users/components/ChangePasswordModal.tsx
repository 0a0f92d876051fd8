import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useChangeOwnPasswordMutation } from '../api/usersApi';

export const PASSWORDS_DIFFER = 'The new password and its confirmation differ';
export const PASSWORD_CHANGED = 'Your password has been changed. Your other sessions have been signed out.';

interface ChangePasswordModalProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The signed-in user's own password (the header menu; docs/api/users.md): the current password, the new
 * one twice. The server applies the password policy and ends the user's other sessions.
 */
export function ChangePasswordModal({ opened, onClose }: ChangePasswordModalProps) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [changePassword, { isLoading }] = useChangeOwnPasswordMutation();

  const close = () => {
    setCurrent('');
    setNext('');
    setConfirm('');
    setProblem(null);
    setDone(false);
    onClose();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (next !== confirm) {
      setProblem(PASSWORDS_DIFFER);
      return;
    }
    setProblem(null);
    try {
      await changePassword({ currentPassword: current, newPassword: next }).unwrap();
      setDone(true);
    } catch (error) {
      setProblem(errorMessageOf(error));
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="Change Password" centered>
      {done ? (
        <Stack gap="md">
          <Text role="status">{PASSWORD_CHANGED}</Text>
          <Button onClick={close} w="fit-content">
            OK
          </Button>
        </Stack>
      ) : (
        <form onSubmit={(event) => void submit(event)}>
          <Stack gap="sm">
            <PasswordInput
              label="Current password"
              value={current}
              onChange={(event) => setCurrent(event.currentTarget.value)}
              autoComplete="current-password"
              required
              disabled={isLoading}
            />
            <PasswordInput
              label="New password"
              description="At least 12 characters, not your username, not a common password"
              value={next}
              onChange={(event) => setNext(event.currentTarget.value)}
              autoComplete="new-password"
              required
              disabled={isLoading}
            />
            <PasswordInput
              label="Confirm new password"
              value={confirm}
              onChange={(event) => setConfirm(event.currentTarget.value)}
              autoComplete="new-password"
              required
              disabled={isLoading}
            />
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={isLoading}>
                Cancel
              </Button>
              <Button type="submit" loading={isLoading}>
                Change Password
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
