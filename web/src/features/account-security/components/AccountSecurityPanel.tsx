import { Alert, Button, Center, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { formatDateTime, type AccountSecurityDto } from '@irp/proto';
import { useId, useState } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import {
  useAccountSecurityQuery,
  useRemovePasskeyMutation,
  useRemoveTotpMutation,
  useRenewRecoveryCodesMutation,
} from '../api/accountSecurityApi';
import { AddPasskeyForm } from './AddPasskeyForm';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

export const recoveryCodesLeft = (count: number): string =>
  `${count} recovery ${count === 1 ? 'code' : 'codes'} left`;

type Passkey = AccountSecurityDto['passkeys'][number];

function PasskeyRow({ passkey, onRemove, busy }: { passkey: Passkey; onRemove: () => void; busy: boolean }) {
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="xs" py={4}>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Text fw={500} truncate title={passkey.name}>
          {passkey.name}
        </Text>
        <Text size="xs" c="dimmed">
          Added {formatDateTime(passkey.createdAt)} · last used{' '}
          {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : 'never'}
        </Text>
      </div>
      <Button
        variant="subtle"
        color="red"
        size="compact-sm"
        onClick={onRemove}
        disabled={busy}
        aria-label={`Remove passkey ${passkey.name}`}
        style={{ flexShrink: 0 }}
      >
        Remove
      </Button>
    </Group>
  );
}

function Failure({ message }: { message: string | null }) {
  return message ? (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  ) : null;
}

function SecuritySections({
  security,
  onCodes,
}: {
  security: AccountSecurityDto;
  onCodes: (codes?: string[]) => void;
}) {
  const [removePasskey, { isLoading: removingPasskey }] = useRemovePasskeyMutation();
  const [removeTotp, { isLoading: removingTotp }] = useRemoveTotpMutation();
  const [renewRecoveryCodes, { isLoading: renewing }] = useRenewRecoveryCodesMutation();
  const [passkeyProblem, setPasskeyProblem] = useState<string | null>(null);
  const [totpProblem, setTotpProblem] = useState<string | null>(null);
  const [codesProblem, setCodesProblem] = useState<string | null>(null);
  const hasFactor = security.passkeys.length > 0 || security.totp;
  const passkeysTitle = useId();
  const totpTitle = useId();
  const recoveryTitle = useId();

  /** Runs a call, showing its refusal (LAST_REQUIRED_FACTOR, ...) in its section. */
  async function attempt(call: () => Promise<unknown>, show: (message: string | null) => void) {
    show(null);
    try {
      await call();
    } catch (error) {
      show(errorMessageOf(error));
    }
  }

  return (
    <Stack gap="lg">
      {security.required && (
        <Text size="sm" c="dimmed">
          Your roles need a second factor: keep at least one passkey or the authenticator app.
        </Text>
      )}
      <Stack gap="xs" component="section" aria-labelledby={passkeysTitle}>
        <Title order={4} id={passkeysTitle}>
          Passkeys
        </Title>
        {security.passkeys.length > 0 ? (
          <ul aria-label="Passkeys" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {security.passkeys.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                passkey={passkey}
                busy={removingPasskey}
                onRemove={() => void attempt(() => removePasskey(passkey.id).unwrap(), setPasskeyProblem)}
              />
            ))}
          </ul>
        ) : (
          <Text size="sm" c="dimmed">
            No passkeys yet.
          </Text>
        )}
        <Failure message={passkeyProblem} />
        <AddPasskeyForm onAdded={onCodes} />
      </Stack>
      <Divider />
      <Stack gap="xs" component="section" aria-labelledby={totpTitle}>
        <Title order={4} id={totpTitle}>
          Authenticator app
        </Title>
        {security.totp ? (
          <>
            <Text size="sm">An authenticator app is set up.</Text>
            <Button
              variant="default"
              color="red"
              w="fit-content"
              loading={removingTotp}
              onClick={() => void attempt(() => removeTotp().unwrap(), setTotpProblem)}
            >
              Remove authenticator app
            </Button>
            <Failure message={totpProblem} />
          </>
        ) : (
          <TotpSetup onConfirmed={onCodes} />
        )}
      </Stack>
      <Divider />
      <Stack gap="xs" component="section" aria-labelledby={recoveryTitle}>
        <Title order={4} id={recoveryTitle}>
          Recovery codes
        </Title>
        {hasFactor ? (
          <>
            <Text size="sm" data-testid="recovery-codes-left">
              {recoveryCodesLeft(security.recoveryCodesLeft)}
            </Text>
            <Button
              variant="default"
              w="fit-content"
              loading={renewing}
              onClick={() =>
                void attempt(
                  async () => onCodes((await renewRecoveryCodes().unwrap()).recoveryCodes),
                  setCodesProblem,
                )
              }
            >
              New recovery codes
            </Button>
            <Failure message={codesProblem} />
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Recovery codes come with your first passkey or authenticator app.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}

/**
 * The signed-in user's second factors (issue 34): passkeys (add, remove), the authenticator app (set up,
 * remove) and recovery codes (how many are left, new ones). Codes the server hands out are shown once.
 */
export function AccountSecurityPanel() {
  const { data: security, error, isLoading } = useAccountSecurityQuery();
  const [codes, setCodes] = useState<string[] | null>(null);

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (isLoading)
    return (
      <Center py="lg">
        <Loader size="sm" aria-label="Loading" />
      </Center>
    );
  if (!security)
    return (
      <Alert color="red" role="alert">
        {errorMessageOf(error)}
      </Alert>
    );
  return <SecuritySections security={security} onCodes={(next) => setCodes(next?.length ? next : null)} />;
}
