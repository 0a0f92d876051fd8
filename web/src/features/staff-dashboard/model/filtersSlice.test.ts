import { configureStore } from '@reduxjs/toolkit';
import { beforeEach, describe, expect, it } from 'vitest';
import { currentMonthRange } from '@irp/proto';
import {
  billableFilterChanged,
  dateRangeChanged,
  defaultFilters,
  loadFilters,
  saveFilters,
  sortHeaderClicked,
  STAFF_DASHBOARD_STORAGE_KEY,
  staffDashboardSlice,
  textFilterChanged,
} from './filtersSlice';

const storeOf = () => configureStore({ reducer: { staffDashboard: staffDashboardSlice.reducer } });

describe('staff dashboard filters', () => {
  beforeEach(() => sessionStorage.clear());

  it('defaults to no text, All, newest first and the current Sydney month', () => {
    const now = new Date('2026-02-10T03:00:00Z');
    expect(defaultFilters(now)).toEqual({
      text: '',
      billable: 'all',
      sortBy: 'date',
      sortDirection: 'desc',
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    });
  });

  it('takes the month from Sydney time, not UTC', () => {
    // 31 Jan 2026 15:00 UTC is already 1 Feb in Sydney.
    expect(currentMonthRange(new Date('2026-01-31T15:00:00Z'))).toEqual({
      startDate: '2026-02-01',
      endDate: '2026-02-28',
    });
    expect(currentMonthRange(new Date('2024-02-15T00:00:00Z')).endDate).toBe('2024-02-29');
    expect(currentMonthRange(new Date('2025-12-15T00:00:00Z'))).toEqual({
      startDate: '2025-12-01',
      endDate: '2025-12-31',
    });
  });

  it('updates text, select, sort and dates', () => {
    const store = storeOf();
    store.dispatch(textFilterChanged('abc'));
    store.dispatch(billableFilterChanged('archived'));
    store.dispatch(sortHeaderClicked('ticker'));
    store.dispatch(dateRangeChanged({ startDate: '2025-01-01' }));
    let state = store.getState().staffDashboard;
    expect(state).toMatchObject({
      text: 'abc',
      billable: 'archived',
      sortBy: 'ticker',
      sortDirection: 'asc',
    });
    expect(state.startDate).toBe('2025-01-01');
    store.dispatch(sortHeaderClicked('ticker'));
    state = store.getState().staffDashboard;
    expect(state.sortDirection).toBe('desc');
  });

  it('survives a reload through sessionStorage', () => {
    const store = storeOf();
    store.dispatch(textFilterChanged('xyz'));
    store.dispatch(billableFilterChanged('billable-unpaid'));
    saveFilters(store.getState().staffDashboard);

    const reloaded = storeOf().getState().staffDashboard;
    expect(reloaded.text).toBe('xyz');
    expect(reloaded.billable).toBe('billable-unpaid');
  });

  it('ignores broken or unknown saved values', () => {
    sessionStorage.setItem(STAFF_DASHBOARD_STORAGE_KEY, '{not json');
    expect(loadFilters(sessionStorage).billable).toBe('all');
    sessionStorage.setItem(
      STAFF_DASHBOARD_STORAGE_KEY,
      JSON.stringify({
        text: 5,
        billable: 'gold',
        sortBy: 'price',
        sortDirection: 'up',
        startDate: '1/2/2025',
      }),
    );
    const now = new Date('2026-02-10T03:00:00Z');
    expect(loadFilters(sessionStorage, now)).toEqual(defaultFilters(now));
  });
});
