import { CloseButton, Group, NativeSelect, TextInput } from '@mantine/core';
import { memo } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { BILLABLE_FILTER_LABELS, BILLABLE_FILTERS, isBillableFilter } from '../model/filters';
import {
  billableFilterChanged,
  dateRangeChanged,
  textFilterChanged,
  type StaffDashboardFiltersState,
} from '../model/filtersSlice';

const BILLABLE_OPTIONS = BILLABLE_FILTERS.map((value) => ({ value, label: BILLABLE_FILTER_LABELS[value] }));

/**
 * The select and the date range: kept while they are unchanged, so a keystroke in the text filter (a new
 * filters object) does not render their three Mantine inputs again.
 */
const RangeFilters = memo(function RangeFilters({
  billable,
  startDate,
  endDate,
}: Pick<StaffDashboardFiltersState, 'billable' | 'startDate' | 'endDate'>) {
  const dispatch = useAppDispatch();
  return (
    <>
      <NativeSelect
        label="Show"
        value={billable}
        data={BILLABLE_OPTIONS}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (isBillableFilter(value)) dispatch(billableFilterChanged(value));
        }}
        style={{ flex: '1 1 12rem' }}
      />
      <TextInput
        type="date"
        label="Start date"
        value={startDate}
        max={endDate || undefined}
        onChange={(event) => dispatch(dateRangeChanged({ startDate: event.currentTarget.value }))}
        style={{ flex: '1 1 9rem' }}
      />
      <TextInput
        type="date"
        label="End date"
        value={endDate}
        min={startDate || undefined}
        onChange={(event) => dispatch(dateRangeChanged({ endDate: event.currentTarget.value }))}
        style={{ flex: '1 1 9rem' }}
      />
    </>
  );
});

/** The text filter, the select and the date range that GET /api/admin/stocks takes. */
export function DashboardFilters({ filters }: { filters: StaffDashboardFiltersState }) {
  const dispatch = useAppDispatch();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Filter"
        data-testid="dashboard-filter"
        placeholder="Ticker, exchange, website or company"
        value={filters.text}
        onChange={(event) => dispatch(textFilterChanged(event.currentTarget.value))}
        rightSection={
          filters.text ? (
            <CloseButton aria-label="Clear text" size="sm" onClick={() => dispatch(textFilterChanged(''))} />
          ) : null
        }
        style={{ flex: '1 1 16rem' }}
      />
      <RangeFilters billable={filters.billable} startDate={filters.startDate} endDate={filters.endDate} />
    </Group>
  );
}
