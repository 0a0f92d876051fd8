import type { StockRowDto } from '@irp/proto';
import { memo, useCallback, type CSSProperties } from 'react';
import { blockSpacer, VirtualRows, type VirtualRowProps } from '@/components/VirtualRows';
import type { DashboardColumn } from '../model/columns';
import type { SortColumn, SortState } from '../model/filters';
import { StockCell, useRouterLinkClicks, type CopyReminder } from './StockCells';
import classes from './StaffDashboard.module.css';

interface StockTableProps {
  stocks: readonly StockRowDto[];
  columns: readonly DashboardColumn[];
  sort: SortState;
  onSort: (column: SortColumn) => void;
  onCopyReminder: CopyReminder;
  /** The stock whose reminder is being copied. */
  copyingTicker: string | null;
}

function SortableHeader({
  column,
  sort,
  onSort,
}: {
  column: DashboardColumn;
  sort: SortState;
  onSort: (column: SortColumn) => void;
}) {
  const active = sort.sortBy === column.key;
  const ascending = sort.sortDirection === 'asc';
  return (
    <div
      role="columnheader"
      aria-sort={active ? (ascending ? 'ascending' : 'descending') : 'none'}
      className={classes.headCell}
    >
      <button type="button" className={classes.sortButton} onClick={() => onSort(column.key)}>
        {column.label}
        <span aria-hidden="true" className={classes.sortIndicator}>
          {active ? (ascending ? '▲' : '▼') : ''}
        </span>
      </button>
    </div>
  );
}

interface RowProps extends VirtualRowProps {
  stock: StockRowDto;
  columns: readonly DashboardColumn[];
  onCopyReminder: CopyReminder;
  copying: boolean;
}

// Memoised: a filter keystroke or a sort re-renders the list, but rows whose stock is unchanged skip.
const StockTableRow = memo(function StockTableRow({
  stock,
  columns,
  onCopyReminder,
  copying,
  ...position
}: RowProps) {
  return (
    <div
      {...position}
      role="row"
      className={classes.row}
      data-testid="dashboard-row"
      data-archived={stock.archived || undefined}
    >
      {columns.map((column) => (
        <div role="cell" key={column.key} className={classes.cell}>
          <StockCell column={column.key} stock={stock} onCopyReminder={onCopyReminder} copying={copying} />
        </div>
      ))}
    </div>
  );
});

/** A row's height before it is measured: one line of text (most rows; the invoice cells take two or three). */
const ROW_HEIGHT = 34;
const stockKey = (stock: StockRowDto) => stock.id;

/** The dashboard at tablet and desktop widths: a table with sortable headers (see the CSS for its make). */
export function StockTable({
  stocks,
  columns,
  sort,
  onSort,
  onCopyReminder,
  copyingTicker,
}: StockTableProps) {
  const onClick = useRouterLinkClicks();
  const renderRow = useCallback(
    (stock: StockRowDto, _index: number, position: VirtualRowProps) => (
      <StockTableRow
        {...position}
        stock={stock}
        columns={columns}
        onCopyReminder={onCopyReminder}
        copying={copyingTicker === stock.combinedTicker}
      />
    ),
    [columns, onCopyReminder, copyingTicker],
  );
  const style = {
    '--dashboard-columns': columns.map((c) => `minmax(0, ${c.share}fr)`).join(' '),
    minWidth: columns.length > 3 ? 1100 : undefined,
  } as CSSProperties;
  return (
    <div className={classes.scroll}>
      <div
        role="table"
        aria-label="Stocks"
        aria-rowcount={stocks.length + 1}
        className={classes.table}
        style={style}
      >
        <div role="rowgroup">
          <div role="row" aria-rowindex={1} className={`${classes.row} ${classes.headRow}`}>
            {columns.map((column) => (
              <SortableHeader key={column.key} column={column} sort={sort} onSort={onSort} />
            ))}
          </div>
        </div>
        <div role="rowgroup" className={classes.body} data-testid="staff-dashboard-rows" onClick={onClick}>
          <VirtualRows
            rows={stocks}
            rowKey={stockKey}
            estimateSize={ROW_HEIGHT}
            kind="row"
            spacer={blockSpacer}
            renderRow={renderRow}
          />
        </div>
      </div>
    </div>
  );
}
