import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './ReportPage.module.css';

export interface ReportColumn<T> {
  label: string;
  render: (row: T) => ReactNode;
  /** Figures are right-aligned so their digits line up. */
  numeric?: boolean;
}

interface ReportTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly ReportColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** Below this width the table scrolls sideways inside its own box. */
  minWidth: number;
  /**
   * For a row that has no figures to show (a day whose market data is missing): one cell after the first
   * column says why, instead of a row of blanks or zeros.
   */
  noteOf?: (row: T) => ReactNode | undefined;
}

/**
 * A table of report figures. Unlike components/DataTable it stays a table on phones (scrolling sideways in
 * its own box): the report's figures are read down the columns, which one card per row would lose.
 */
export function ReportTable<T>({ label, columns, rows, rowKey, minWidth, noteOf }: ReportTableProps<T>) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table
        striped
        verticalSpacing={4}
        horizontalSpacing="xs"
        fz="sm"
        aria-label={label}
        className={classes.table}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.label} scope="col" ta={column.numeric ? 'right' : undefined}>
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const note = noteOf?.(row);
            const shown = note === undefined ? columns : columns.slice(0, 1);
            return (
              <Table.Tr key={rowKey(row, index)}>
                {shown.map((column) => (
                  <Table.Td
                    key={column.label}
                    ta={column.numeric ? 'right' : undefined}
                    style={column.numeric ? { whiteSpace: 'nowrap' } : undefined}
                  >
                    {column.render(row)}
                  </Table.Td>
                ))}
                {note !== undefined && <Table.Td colSpan={columns.length - 1}>{note}</Table.Td>}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
