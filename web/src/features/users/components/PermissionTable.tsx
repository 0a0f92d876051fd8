import { Badge, Button, Checkbox, Group } from '@mantine/core';
import { STOCK_ROLES } from '@irp/proto';
import { DataTable, type DataColumn } from '@/components/DataTable';
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
      render: (row) => (
        <Button
          color="red"
          variant="subtle"
          size="compact-sm"
          aria-label={`Delete ${row.combinedTicker}`}
          onClick={() => onDelete(row.stockId)}
        >
          Delete
        </Button>
      ),
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
