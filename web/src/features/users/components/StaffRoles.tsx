import { Checkbox, Group, Text } from '@mantine/core';
import { GLOBAL_ROLES } from '@irp/proto';
import { STAFF_ROLE_LABELS } from '../model/userForm';

interface StaffRolesProps {
  roles: readonly string[];
  onChange: (roles: string[]) => void;
  /** Only an Admin sets staff roles (spec section 6); others see them, greyed. */
  editable: boolean;
}

/** The staff roles (Admin, Run Reports, Edit Users, Invoice Total) as checkboxes. */
export function StaffRoles({ roles, onChange, editable }: StaffRolesProps) {
  return (
    <Checkbox.Group
      label="Staff roles"
      value={[...roles]}
      onChange={(values) => onChange(GLOBAL_ROLES.filter((role) => values.includes(role)))}
      description={editable ? undefined : 'Set only by an Admin'}
    >
      <Group gap="md" mt={6}>
        {GLOBAL_ROLES.map((role) => (
          <Checkbox key={role} value={role} label={STAFF_ROLE_LABELS[role]} disabled={!editable} />
        ))}
      </Group>
      {!editable && roles.length === 0 && (
        <Text size="xs" c="dimmed">
          None
        </Text>
      )}
    </Checkbox.Group>
  );
}
