import { Badge, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { STOCK_ROLES } from '@irp/proto';
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { STOCK_ROLE_LABELS, type PermissionRow } from '../model/userForm';

interface PermissionTableProps {
  rows: readonly PermissionRow[];
  onToggle: (stockId: string, role: PermissionRow['roles'][number], held: boolean) => void;
  onDelete: (stockId: string) => void;
}

/**
 * The editor's table (spec section 2, Users): Ticker, Company Name, one checkbox per per-stock role and a
 * Delete button per row; on a phone, one card per stock.
 */
export function PermissionTable({ rows, onToggle, onDelete }: PermissionTableProps) {
  const small = useSmallScreen();
  const roleBox = (row: PermissionRow, role: PermissionRow['roles'][number], label?: string) => (
    <Checkbox
      label={label}
      aria-label={`${STOCK_ROLE_LABELS[role]} on ${row.combinedTicker}`}
      checked={row.roles.includes(role)}
      onChange={(event) => onToggle(row.stockId, role, event.currentTarget.checked)}
    />
  );
  const deleteButton = (row: PermissionRow) => (
    <Button
      color="red"
      variant="subtle"
      size="compact-sm"
      aria-label={`Delete ${row.combinedTicker}`}
      onClick={() => onDelete(row.stockId)}
    >
      Delete
    </Button>
  );
  if (small) return <PermissionCards rows={rows} roleBox={roleBox} deleteButton={deleteButton} />;
  const columns: DataColumn<PermissionRow>[] = [
    {
      label: 'Ticker',
      nowrap: true,
      render: (row) => (
        <Group gap={6} wrap="nowrap">
          <span>{row.combinedTicker}</span>
          {row.archived && (
            <Badge color="gray" size="xs">
              archived
            </Badge>
          )}
        </Group>
      ),
    },
    { label: 'Company Name', render: (row) => row.companyName },
    ...STOCK_ROLES.map((role): DataColumn<PermissionRow> => ({
      label: STOCK_ROLE_LABELS[role],
      render: (row) => (
        <Checkbox
          aria-label={`${STOCK_ROLE_LABELS[role]} on ${row.combinedTicker}`}
          checked={row.roles.includes(role)}
          onChange={(event) => onToggle(row.stockId, role, event.currentTarget.checked)}
        />
      ),
    })),
    {
      label: 'Delete',
      render: deleteButton,
    },
  ];
  return (
    <DataTable
      label="Permissions"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.stockId}
      empty="No stocks yet: choose a company and Add Row"
      minWidth={1000}
    />
  );
}

interface PermissionCardsProps {
  rows: readonly PermissionRow[];
  roleBox: (row: PermissionRow, role: PermissionRow['roles'][number], label: string) => ReactNode;
  deleteButton: (row: PermissionRow) => ReactNode;
}

/** On a phone: a card per stock, its roles as labelled checkboxes two to a line. */
function PermissionCards({ rows, roleBox, deleteButton }: PermissionCardsProps) {
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm" aria-label="Permissions">
        No stocks yet: choose a company and Add Row
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Permissions">
      {rows.map((row) => (
        <Paper key={row.stockId} component="li" withBorder p="sm" radius="sm">
          <Group justify="space-between" wrap="nowrap" align="start">
            <div>
              <Text fw={600}>{row.combinedTicker}</Text>
              <Text size="sm" c="dimmed">
                {row.companyName}
                {row.archived ? ' (archived)' : ''}
              </Text>
            </div>
            {deleteButton(row)}
          </Group>
          <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs" mt="xs">
            {STOCK_ROLES.map((role) => (
              <div key={role}>{roleBox(row, role, STOCK_ROLE_LABELS[role])}</div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}
