import { describe, expect, it } from 'vitest';
import { startLoading, stopLoading, uiSlice } from './uiSlice';

describe('ui slice', () => {
  it('counts overlapping work and never goes below zero', () => {
    const reduce = uiSlice.reducer;
    let state = reduce(undefined, startLoading());
    state = reduce(state, startLoading());
    state = reduce(state, stopLoading());
    expect(uiSlice.selectors.selectIsGlobalLoading({ ui: state })).toBe(true);
    state = reduce(state, stopLoading());
    state = reduce(state, stopLoading());
    expect(state.loadingCount).toBe(0);
    expect(uiSlice.selectors.selectIsGlobalLoading({ ui: state })).toBe(false);
  });
});
