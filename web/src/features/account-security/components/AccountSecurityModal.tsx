import { Modal } from '@mantine/core';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { AccountSecurityPanel } from './AccountSecurityPanel';

interface AccountSecurityModalProps {
  opened: boolean;
  onClose: () => void;
}

/** The header's 'Account security' (issue 34): the signed-in user's passkeys, authenticator app and codes. */
export function AccountSecurityModal({ opened, onClose }: AccountSecurityModalProps) {
  const small = useSmallScreen();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Account security"
      size="lg"
      fullScreen={small}
      // A click beside it must not lose recovery codes shown once; Escape and the close button still close.
      closeOnClickOutside={false}
      centered
    >
      <AccountSecurityPanel />
    </Modal>
  );
}
