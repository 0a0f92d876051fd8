import { Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';

export interface DataColumn<T> {
  label: string;
  render: (row: T) => ReactNode;
  /** Keep the cell on one line (dates, sizes). */
  nowrap?: boolean;
}

interface DataTableProps<T> {
  /** The table's (or list's) accessible name. */
  label: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** Shown when there are no rows (in the table's body; alone on phones). */
  empty?: string;
  /** Below this width the table scrolls sideways. */
  minWidth?: number;
}

/** Rows as a table, or on phones one card per row with the columns as labelled lines. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  empty = 'None',
  minWidth = 560,
}: DataTableProps<T>) {
  const small = useSmallScreen();
  if (small && rows.length === 0) {
    return (
      <Text c="dimmed" size="sm" aria-label={label}>
        {empty}
      </Text>
    );
  }
  if (small) {
    return (
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {rows.map((row, index) => (
          <Paper key={rowKey(row, index)} component="li" withBorder p="xs" radius="sm">
            <dl style={{ margin: 0, display: 'grid', gap: 4 }}>
              {columns.map((column) => (
                <div key={column.label}>
                  <Text component="dt" size="xs" c="dimmed">
                    {column.label}
                  </Text>
                  <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                    {column.render(row)}
                  </Text>
                </div>
              ))}
            </dl>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table striped verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.label} scope="col">
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {/* An empty result keeps its table (the headers say what was looked for). */}
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text c="dimmed" size="sm">
                  {empty}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)}>
              {columns.map((column) => (
                <Table.Td
                  key={column.label}
                  style={column.nowrap ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
                >
                  {column.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
