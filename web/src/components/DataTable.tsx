import { Paper, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { blockSpacer, tableSpacer, VirtualRows } from './VirtualRows';

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

/** A table row's height before it is measured (one line at verticalSpacing xs). */
const ROW_HEIGHT = 37;
/** A card's height before it is measured: a label and a line per column, its padding and the gap. */
const cardHeight = (columns: number) => 24 + columns * 42;

/**
 * Rows as a table, or on phones one card per row with the columns as labelled lines. A long list renders
 * only the rows near the screen (VirtualRows); the page scrolls, with no page sizes (spec section 9).
 */
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
      <ul aria-label={label} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        <VirtualRows
          rows={rows}
          rowKey={rowKey}
          estimateSize={cardHeight(columns.length)}
          kind="listitem"
          spacer={blockSpacer}
          renderRow={(row, _index, position) => (
            // The gap below each card is the item's padding, so measuring the item measures it too.
            <li {...position} style={{ paddingBottom: 'var(--mantine-spacing-xs)' }}>
              <Paper withBorder p="xs" radius="sm">
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
            </li>
          )}
        />
      </ul>
    );
  }
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table striped verticalSpacing="xs" aria-label={label} aria-rowcount={rows.length + 1}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
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
          <VirtualRows
            rows={rows}
            rowKey={rowKey}
            estimateSize={ROW_HEIGHT}
            kind="row"
            spacer={tableSpacer(columns.length)}
            renderRow={(row, _index, position) => (
              <Table.Tr {...position}>
                {columns.map((column) => (
                  <Table.Td
                    key={column.label}
                    style={column.nowrap ? { whiteSpace: 'nowrap' } : { overflowWrap: 'anywhere' }}
                  >
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            )}
          />
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
