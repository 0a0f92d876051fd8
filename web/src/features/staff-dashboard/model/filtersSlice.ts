import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { currentMonthRange } from '@irp/proto';
import {
  DEFAULT_SORT,
  isBillableFilter,
  isSortColumn,
  nextSort,
  type BillableFilter,
  type SortColumn,
  type SortDirection,
} from './filters';

/** The staff dashboard's filters (spec section 2), kept across navigation and reloads of the tab. */
export interface StaffDashboardFiltersState {
  text: string;
  billable: BillableFilter;
  sortBy: SortColumn;
  sortDirection: SortDirection;
  /** YYYY-MM-DD, sent to GET /api/admin/stocks. */
  startDate: string;
  endDate: string;
}

export const STAFF_DASHBOARD_STORAGE_KEY = 'irp.staffDashboard.filters';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function defaultFilters(now: Date = new Date()): StaffDashboardFiltersState {
  return { text: '', billable: 'all', ...DEFAULT_SORT, ...currentMonthRange(now) };
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    // Storage can be blocked (privacy settings); the filters then last until the page is left.
    return undefined;
  }
}

/** The saved filters, each field checked, falling back to the defaults for anything missing or stale. */
export function loadFilters(store: Storage | undefined = storage(), now: Date = new Date()) {
  const defaults = defaultFilters(now);
  let saved: Partial<Record<keyof StaffDashboardFiltersState, unknown>> = {};
  try {
    const raw = store?.getItem(STAFF_DASHBOARD_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object') saved = parsed;
  } catch {
    saved = {};
  }
  const date = (value: unknown, fallback: string) =>
    typeof value === 'string' && (value === '' || ISO_DATE.test(value)) ? value : fallback;
  return {
    text: typeof saved.text === 'string' ? saved.text : defaults.text,
    billable: isBillableFilter(saved.billable) ? saved.billable : defaults.billable,
    sortBy: isSortColumn(saved.sortBy) ? saved.sortBy : defaults.sortBy,
    sortDirection:
      saved.sortDirection === 'asc' || saved.sortDirection === 'desc'
        ? saved.sortDirection
        : defaults.sortDirection,
    startDate: date(saved.startDate, defaults.startDate),
    endDate: date(saved.endDate, defaults.endDate),
  } satisfies StaffDashboardFiltersState;
}

export function saveFilters(
  filters: StaffDashboardFiltersState,
  store: Storage | undefined = storage(),
): void {
  try {
    store?.setItem(STAFF_DASHBOARD_STORAGE_KEY, JSON.stringify(filters));
  } catch {
    // Quota or blocked storage: the filters still work for this page view.
  }
}

export const staffDashboardSlice = createSlice({
  name: 'staffDashboard',
  // Lazy, so the saved filters are read when the store is created (after a reload), not at import.
  initialState: () => loadFilters(),
  reducers: {
    textFilterChanged(state, action: PayloadAction<string>) {
      state.text = action.payload;
    },
    billableFilterChanged(state, action: PayloadAction<BillableFilter>) {
      state.billable = action.payload;
    },
    sortHeaderClicked(state, action: PayloadAction<SortColumn>) {
      Object.assign(state, nextSort(state, action.payload));
    },
    sortChanged(state, action: PayloadAction<{ sortBy: SortColumn; sortDirection: SortDirection }>) {
      state.sortBy = action.payload.sortBy;
      state.sortDirection = action.payload.sortDirection;
    },
    dateRangeChanged(state, action: PayloadAction<{ startDate?: string; endDate?: string }>) {
      if (action.payload.startDate !== undefined) state.startDate = action.payload.startDate;
      if (action.payload.endDate !== undefined) state.endDate = action.payload.endDate;
    },
  },
  selectors: {
    selectStaffDashboardFilters: (state) => state,
  },
});

export const { textFilterChanged, billableFilterChanged, sortHeaderClicked, sortChanged, dateRangeChanged } =
  staffDashboardSlice.actions;
export const { selectStaffDashboardFilters } = staffDashboardSlice.selectors;
