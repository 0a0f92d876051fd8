import { Button, Divider, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { SECOND_FACTOR_REQUIRED } from '@irp/proto';
import { useId, useState } from 'react';
import { useLogout } from '@/lib/session/useLogout';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { AddPasskeyForm } from './AddPasskeyForm';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

interface SecondFactorRequiredModalProps {
  /** A second factor is set up (and its recovery codes, if any, acknowledged): the page may open. */
  onAdded: () => void;
}

/**
 * A user whose roles need a second factor and who has none sets one up before anything else (issue 34:
 * the server refuses every other call with SECOND_FACTOR_REQUIRED). Cannot be dismissed; 'Sign out' ends the session instead.
 */
export function SecondFactorRequiredModal({ onAdded }: SecondFactorRequiredModalProps) {
  const small = useSmallScreen();
  const logout = useLogout();
  const [codes, setCodes] = useState<string[] | null>(null);
  const passkeyTitle = useId();
  const totpTitle = useId();
  const added = (recoveryCodes: string[] | undefined) => {
    if (recoveryCodes?.length) setCodes(recoveryCodes);
    else onAdded();
  };

  return (
    <Modal
      opened
      onClose={() => undefined}
      title="Set up a second factor"
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      fullScreen={small}
      size="lg"
      centered
    >
      {codes ? (
        <RecoveryCodes codes={codes} onDone={onAdded} />
      ) : (
        <Stack gap="md">
          <Text size="sm">{SECOND_FACTOR_REQUIRED}</Text>
          <Stack gap="xs" component="section" aria-labelledby={passkeyTitle}>
            <Title order={4} id={passkeyTitle}>
              Passkey
            </Title>
            <AddPasskeyForm onAdded={added} />
          </Stack>
          <Divider label="or" labelPosition="center" />
          <Stack gap="xs" component="section" aria-labelledby={totpTitle}>
            <Title order={4} id={totpTitle}>
              Authenticator app
            </Title>
            <TotpSetup onConfirmed={added} />
          </Stack>
          <Group justify="flex-end">
            <Button variant="subtle" onClick={() => void logout()}>
              Sign out
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
