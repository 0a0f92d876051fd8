import { Alert, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { GlobalRole, type StockRowDto } from '@irp/proto';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { copyHtmlToClipboard } from '@/lib/clipboard';
import { formatCentsPlusGst } from '@/lib/money';
import { hasRole, isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { whenIdle } from '@/lib/ui/whenIdle';
import {
  useStaffDashboardReminderEmailMutation,
  useStaffDashboardStocksQuery,
} from '../api/staffDashboardApi';
import { DashboardFilters } from '../components/DashboardFilters';
import { StockCards } from '../components/StockCards';
import { StockTable } from '../components/StockTable';
import { ADMIN_COLUMNS, REPORT_RUNNER_COLUMNS } from '../model/columns';
import {
  byText,
  describeActiveFilters,
  filterStocks,
  repeatingInvoiceTotalCents,
  showsRepeatingInvoiceTotal,
  sortStocks,
  type SortColumn,
  type SortState,
} from '../model/filters';
import {
  saveFilters,
  selectStaffDashboardFilters,
  sortChanged,
  sortHeaderClicked,
} from '../model/filtersSlice';

/** Spec section 2. */
export const COPIED_MESSAGE = 'Email reminder copied to clipboard';
const COPIED_SHOWN_MS = 4000;
const NO_STOCKS: readonly StockRowDto[] = [];

/** Copies a stock's reminder email; one trigger for the whole list, not one hook per row. */
function useCopyReminder() {
  const [fetchReminder] = useStaffDashboardReminderEmailMutation();
  const [copyingTicker, setCopyingTicker] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(hideTimer.current), []);

  const copyReminder = useCallback(
    async (combinedTicker: string) => {
      setCopyingTicker(combinedTicker);
      setCopied(false);
      try {
        const { html } = await fetchReminder(combinedTicker).unwrap();
        await copyHtmlToClipboard(html);
        setCopied(true);
        clearTimeout(hideTimer.current);
        hideTimer.current = setTimeout(() => setCopied(false), COPIED_SHOWN_MS);
      } catch (error) {
        // Spec section 8: a clipboard failure (or the reminder's) is an alert of the error.
        window.alert(errorMessageOf(error));
      } finally {
        setCopyingTicker(null);
      }
    },
    [fetchReminder],
  );
  const onCopyReminder = useCallback(
    (combinedTicker: string) => void copyReminder(combinedTicker),
    [copyReminder],
  );
  return { onCopyReminder, copyingTicker, copied, dismissCopied: () => setCopied(false) };
}

/** / for staff (spec section 2): every stock with filters, sorting and the billing columns. */
export function StaffDashboardRoute() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectSessionUser);
  const filters = useAppSelector(selectStaffDashboardFilters);
  const small = useSmallScreen();
  const admin = isAdmin(user);
  const columns = admin ? ADMIN_COLUMNS : REPORT_RUNNER_COLUMNS;
  const canSeeTotal = admin || hasRole(user, GlobalRole.InvoiceTotal);

  useEffect(() => saveFilters(filters), [filters]);

  const { data, error, isLoading, isFetching } = useStaffDashboardStocksQuery({
    startDate: filters.startDate,
    endDate: filters.endDate,
  });
  const stocks = data?.stocks ?? NO_STOCKS;
  // The filter's search texts, made while the page is idle after the list arrived (not on the first key).
  useEffect(() => whenIdle(() => byText.prepare(stocks)), [stocks]);

  // A keystroke filters and renders in the same frame as the input's echo: the filter is one `includes`
  // per row on a kept search text, and the list renders only the rows on screen, so 20,000 rows cost a
  // frame's fraction; deferring the list would cost a second frame.
  const text = filters.text;
  const sort = useMemo<SortState>(
    () => ({ sortBy: filters.sortBy, sortDirection: filters.sortDirection }),
    [filters.sortBy, filters.sortDirection],
  );
  const sorted = useMemo(() => sortStocks(stocks, sort), [stocks, sort]);
  const shown = useMemo(
    () => filterStocks(sorted, { text, billable: filters.billable }),
    [sorted, text, filters.billable],
  );
  const showTotal = showsRepeatingInvoiceTotal(canSeeTotal, { text, billable: filters.billable });
  const total = useMemo(() => (showTotal ? repeatingInvoiceTotalCents(shown) : 0), [showTotal, shown]);

  const onSort = useCallback((column: SortColumn) => dispatch(sortHeaderClicked(column)), [dispatch]);
  const onSortChange = useCallback((next: SortState) => dispatch(sortChanged(next)), [dispatch]);
  const { onCopyReminder, copyingTicker, copied, dismissCopied } = useCopyReminder();

  return (
    <Page title="Staff Dashboard">
      <DashboardFilters filters={filters} />
      {error && (
        <Alert color="red" role="alert" title="Unable to load the stocks">
          {errorMessageOf(error)}
        </Alert>
      )}
      {data && data.unavailable.length > 0 && (
        <Alert color="yellow" data-testid="staff-dashboard-unavailable">
          Some columns could not be loaded ({data.unavailable.join(', ')} did not answer); they show empty
          until the page is reloaded.
        </Alert>
      )}
      {copied && (
        <Alert color="green" role="status" withCloseButton onClose={dismissCopied}>
          {COPIED_MESSAGE}
        </Alert>
      )}
      {isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading stocks" />
        </Center>
      ) : (
        data && (
          <Stack gap="xs">
            <Group justify="space-between" gap="xs">
              <Group gap="xs">
                <Text size="sm" data-testid="staff-dashboard-showing">
                  Showing {shown.length} of {stocks.length} ·{' '}
                  {describeActiveFilters({ text, billable: filters.billable }).join(' · ')}
                </Text>
                {isFetching && <Loader size="xs" aria-label="Updating" />}
              </Group>
              {showTotal && (
                <Text size="sm" fw={600} data-testid="repeating-invoice-total">
                  Repeating Invoice Total: {formatCentsPlusGst(total)}
                </Text>
              )}
            </Group>
            {small ? (
              <StockCards
                stocks={shown}
                columns={columns}
                sort={sort}
                onSortChange={onSortChange}
                onCopyReminder={onCopyReminder}
                copyingTicker={copyingTicker}
              />
            ) : (
              <StockTable
                stocks={shown}
                columns={columns}
                sort={sort}
                onSort={onSort}
                onCopyReminder={onCopyReminder}
                copyingTicker={copyingTicker}
              />
            )}
            {shown.length === 0 && (
              <Text c="dimmed" ta="center" py="md">
                No stocks match the filters.
              </Text>
            )}
          </Stack>
        )
      )}
    </Page>
  );
}
