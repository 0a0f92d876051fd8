import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useChangeOwnPasswordMutation } from '../api/usersApi';

export const PASSWORDS_DIFFER = 'The new password and its confirmation differ';
export const PASSWORD_CHANGED = 'Your password has been changed. Your other sessions have been signed out.';
export const ONE_TIME_PASSWORD_NOTE =
  'Your password was set by someone else. Choose a new one of your own to go on.';

interface ChangePasswordModalProps {
  opened: boolean;
  onClose: () => void;
  /**
   * The password is one someone else set (issue 34): the dialog cannot be dismissed, says why, and calls
   * `onChanged` once the new password is saved instead of showing the confirmation.
   */
  required?: boolean;
  onChanged?: () => void;
}

/**
 * The signed-in user's own password (the header menu; docs/api/users.md): the current password, the new
 * one twice. The server applies the password policy and ends the user's other sessions.
 */
export function ChangePasswordModal({
  opened,
  onClose,
  required = false,
  onChanged,
}: ChangePasswordModalProps) {
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
      if (required) onChanged?.();
      else setDone(true);
    } catch (error) {
      setProblem(errorMessageOf(error));
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={required ? () => undefined : close}
      title={required ? 'Choose a new password' : 'Change Password'}
      withCloseButton={!required}
      closeOnClickOutside={!required}
      closeOnEscape={!required}
      centered
    >
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
            {required && <Text size="sm">{ONE_TIME_PASSWORD_NOTE}</Text>}
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
              {!required && (
                <Button variant="default" onClick={close} disabled={isLoading}>
                  Cancel
                </Button>
              )}
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
