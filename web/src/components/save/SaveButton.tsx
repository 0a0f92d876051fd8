import { Button, Modal, Popover, Stack, Text, type ButtonProps } from '@mantine/core';
import { NOTHING_TO_SAVE, useSaveFlow, type SaveState } from './SaveFlow';

const LABELS: Record<SaveState, string> = { idle: 'Save', saving: 'Saving...', saved: 'Saved!' };

/**
 * The Save button of a page with a SaveFlowProvider: its text cycle, 'Nothing to Save' in a small bubble
 * under it (it does not block the page, and goes away after 3 seconds or on a click elsewhere), and the
 * 'Save failed' modal with the server's message.
 */
export function SaveButton(props: Omit<ButtonProps, 'children'>) {
  const { state, nothingToSave, failure, save, dismissNothingToSave, dismissFailure } = useSaveFlow();
  return (
    <>
      <Popover
        opened={nothingToSave}
        onDismiss={dismissNothingToSave}
        position="bottom-end"
        withArrow
        shadow="md"
      >
        <Popover.Target>
          <Button
            {...props}
            onClick={() => void save()}
            disabled={state === 'saving'}
            color={state === 'saved' ? 'green' : undefined}
          >
            {LABELS[state]}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Text role="status" size="sm">
            {NOTHING_TO_SAVE}
          </Text>
        </Popover.Dropdown>
      </Popover>
      <Modal opened={failure !== null} onClose={dismissFailure} title="Save failed" centered>
        <Stack gap="md">
          <Text role="alert">{failure}</Text>
          <Button onClick={dismissFailure} w="fit-content">
            OK
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
