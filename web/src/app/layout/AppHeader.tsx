import {
  ActionIcon,
  Burger,
  Button,
  Drawer,
  Group,
  NavLink,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import type { SessionUserDto } from '@irp/proto';
import { Link, useMatch } from 'react-router-dom';
import { AccountSecurityModal } from '@/features/account-security/components/AccountSecurityModal';
import { ChangePasswordModal } from '@/features/users/components/ChangePasswordModal';
import { useLogout } from '@/lib/session/useLogout';
import { navItemsFor, type NavItem } from './nav';

/**
 * Below Mantine's `md` breakpoint (62em) the admin menu no longer fits on one line, so it moves into a
 * drawer behind a burger (phones and small tablets).
 */
export const COMPACT_HEADER_QUERY = '(max-width: 61.99em)';

/**
 * From Mantine's `lg` breakpoint (75em) 'Account security' fits as words; between `md` and `lg` the admin's
 * full menu leaves room only for its icon (same name, a tooltip).
 */
export const ROOMY_HEADER_QUERY = '(min-width: 75em)';

interface AppHeaderProps {
  user: SessionUserDto;
}

function SignedInAs({ username }: { username: string }) {
  return (
    <Text size="sm" c="dimmed" data-testid="signed-in-as">
      Logged in as {username}
    </Text>
  );
}

function HeaderLink({ item }: { item: NavItem }) {
  const active = useMatch({ path: item.to, end: false }) !== null;
  return (
    <Button component={Link} to={item.to} variant={active ? 'light' : 'subtle'} size="compact-sm">
      {item.label}
    </Button>
  );
}

function DrawerLink({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const active = useMatch({ path: item.to, end: false }) !== null;
  return <NavLink component={Link} to={item.to} label={item.label} active={active} onClick={onNavigate} />;
}

/** A shield: the 'Account security' button where its words do not fit. */
function ShieldIcon() {
  return (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3z" />
      <path d="M9 12l2 2 4-4" />
    </svg>
  );
}

/** The top navigation of spec section 2: who is signed in, the links their roles allow, and Logout. */
export function AppHeader({ user }: AppHeaderProps) {
  const compact = useMediaQuery(COMPACT_HEADER_QUERY, false, { getInitialValueInEffect: false });
  const roomy = useMediaQuery(ROOMY_HEADER_QUERY, false, { getInitialValueInEffect: false });
  const [drawerOpened, drawer] = useDisclosure(false);
  const [passwordOpened, passwordModal] = useDisclosure(false);
  const [securityOpened, securityModal] = useDisclosure(false);
  const logout = useLogout();
  const items = navItemsFor(user);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <UnstyledButton component={Link} to="/" fw={700} fz="lg">
        IR Portal
      </UnstyledButton>
      {compact ? (
        <>
          <Burger
            opened={drawerOpened}
            onClick={drawer.toggle}
            aria-label={drawerOpened ? 'Close menu' : 'Open menu'}
            aria-expanded={drawerOpened}
            size="sm"
          />
          <Drawer opened={drawerOpened} onClose={drawer.close} title="Menu" position="right" size={280}>
            <Stack gap="xs">
              <SignedInAs username={user.username} />
              <nav aria-label="Main">
                {items.map((item) => (
                  <DrawerLink key={item.to} item={item} onNavigate={drawer.close} />
                ))}
              </nav>
              <Button
                variant="default"
                onClick={() => {
                  drawer.close();
                  passwordModal.open();
                }}
              >
                Change Password
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  drawer.close();
                  securityModal.open();
                }}
              >
                Account security
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  drawer.close();
                  void logout();
                }}
              >
                Logout
              </Button>
            </Stack>
          </Drawer>
        </>
      ) : (
        <Group gap={6} wrap="nowrap">
          <SignedInAs username={user.username} />
          <Group component="nav" aria-label="Main" gap={4} wrap="nowrap">
            {items.map((item) => (
              <HeaderLink key={item.to} item={item} />
            ))}
          </Group>
          <Button variant="subtle" size="compact-sm" onClick={passwordModal.open}>
            Change Password
          </Button>
          {roomy ? (
            <Button variant="subtle" size="compact-sm" onClick={securityModal.open}>
              Account security
            </Button>
          ) : (
            <Tooltip label="Account security">
              <ActionIcon
                variant="subtle"
                size="md"
                aria-label="Account security"
                onClick={securityModal.open}
              >
                <ShieldIcon />
              </ActionIcon>
            </Tooltip>
          )}
          <Button variant="default" size="compact-sm" onClick={() => void logout()}>
            Logout
          </Button>
        </Group>
      )}
      <ChangePasswordModal opened={passwordOpened} onClose={passwordModal.close} />
      <AccountSecurityModal opened={securityOpened} onClose={securityModal.close} />
    </Group>
  );
}
