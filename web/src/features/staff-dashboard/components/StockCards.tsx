import { Group, NativeSelect, Stack } from '@mantine/core';
import { formatDate, type StockRowDto } from '@irp/proto';
import { memo, useCallback, useMemo } from 'react';
import { blockSpacer, VirtualRows, type VirtualRowProps } from '@/components/VirtualRows';
import type { DashboardColumn } from '../model/columns';
import { isSortColumn, type SortState } from '../model/filters';
import { StockCell, TickerLink, useRouterLinkClicks, type CopyReminder } from './StockCells';
import classes from './StaffDashboard.module.css';

interface StockCardsProps {
  stocks: readonly StockRowDto[];
  columns: readonly DashboardColumn[];
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  onCopyReminder: CopyReminder;
  copyingTicker: string | null;
}

interface CardProps extends VirtualRowProps {
  stock: StockRowDto;
  /** The columns after Ticker and Created, which head every card. */
  details: readonly DashboardColumn[];
  onCopyReminder: CopyReminder;
  copying: boolean;
}

/** A card's height before it is measured, with the space below it (the slot's padding, measured with it). */
const CARD_HEIGHT = 190;
const stockKey = (stock: StockRowDto) => stock.id;

const WIDE = new Set(['website', 'invoice', 'apiKey']);

// Plain elements, like the table rows: a phone may list every stock too.
const StockCard = memo(function StockCard({
  stock,
  details,
  onCopyReminder,
  copying,
  ...position
}: CardProps) {
  return (
    <div {...position} role="listitem" className={classes.cardSlot}>
      <div className={classes.card} data-testid="dashboard-row" data-archived={stock.archived || undefined}>
        <div className={classes.cardHead}>
          <TickerLink stock={stock} />
          <span className={classes.dimmed}>{formatDate(stock.created)}</span>
        </div>
        {stock.companyName && <div>{stock.companyName}</div>}
        <dl className={classes.details}>
          {details.map((column) => (
            <div key={column.key} className={WIDE.has(column.key) ? classes.wide : undefined}>
              <dt>{column.label}</dt>
              <dd>
                <StockCell
                  column={column.key}
                  stock={stock}
                  onCopyReminder={onCopyReminder}
                  copying={copying}
                />
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
});

/** The dashboard on phones: one card per stock, and a sort select in place of the table headers. */
export function StockCards({
  stocks,
  columns,
  sort,
  onSortChange,
  onCopyReminder,
  copyingTicker,
}: StockCardsProps) {
  const details = useMemo(() => columns.filter((c) => c.key !== 'ticker' && c.key !== 'date'), [columns]);
  const onClick = useRouterLinkClicks();
  const renderCard = useCallback(
    (stock: StockRowDto, _index: number, position: VirtualRowProps) => (
      <StockCard
        {...position}
        stock={stock}
        details={details}
        onCopyReminder={onCopyReminder}
        copying={copyingTicker === stock.combinedTicker}
      />
    ),
    [details, onCopyReminder, copyingTicker],
  );
  return (
    <Stack gap="xs">
      <Group gap="xs" grow>
        <NativeSelect
          label="Sort by"
          value={sort.sortBy}
          data={columns.map((c) => ({ value: c.key, label: c.label }))}
          onChange={(event) => {
            const sortBy = event.currentTarget.value;
            if (isSortColumn(sortBy)) onSortChange({ sortBy, sortDirection: sort.sortDirection });
          }}
        />
        <NativeSelect
          label="Order"
          value={sort.sortDirection}
          data={[
            { value: 'asc', label: 'Ascending' },
            { value: 'desc', label: 'Descending' },
          ]}
          onChange={(event) =>
            onSortChange({
              sortBy: sort.sortBy,
              sortDirection: event.currentTarget.value === 'asc' ? 'asc' : 'desc',
            })
          }
        />
      </Group>
      <div
        role="list"
        aria-label="Stocks"
        className={classes.cards}
        data-testid="staff-dashboard-rows"
        onClick={onClick}
      >
        <VirtualRows
          rows={stocks}
          rowKey={stockKey}
          estimateSize={CARD_HEIGHT}
          kind="listitem"
          spacer={blockSpacer}
          renderRow={renderCard}
        />
      </div>
    </Stack>
  );
}
