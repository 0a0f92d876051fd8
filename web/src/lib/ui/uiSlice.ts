import { createSlice } from '@reduxjs/toolkit';

export interface UiState {
  /** Work in flight that shows the global spinner overlay; a counter so overlapping work nests. */
  loadingCount: number;
}

const initialState: UiState = { loadingCount: 0 };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    startLoading(state) {
      state.loadingCount += 1;
    },
    stopLoading(state) {
      state.loadingCount = Math.max(0, state.loadingCount - 1);
    },
  },
  selectors: {
    selectIsGlobalLoading: (state) => state.loadingCount > 0,
  },
});

export const { startLoading, stopLoading } = uiSlice.actions;
export const { selectIsGlobalLoading } = uiSlice.selectors;
