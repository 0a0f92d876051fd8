import { Button, CopyButton, Group, List, Stack, Text } from '@mantine/core';

export const RECOVERY_CODES_NOTE =
  'Save these recovery codes somewhere safe: each works once, and they are not shown again.';

interface RecoveryCodesProps {
  codes: readonly string[];
  /** The user has saved them: the codes are forgotten here. */
  onDone: () => void;
}

/** Recovery codes, shown once: with the first second factor, or when asked for anew (issue 34). */
export function RecoveryCodes({ codes, onDone }: RecoveryCodesProps) {
  return (
    <Stack gap="sm">
      <Text fw={500} role="status">
        {RECOVERY_CODES_NOTE}
      </Text>
      <List
        data-testid="recovery-codes"
        ff="monospace"
        listStyleType="none"
        spacing={4}
        aria-label="Recovery codes"
      >
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group justify="flex-end">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
