import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startLoading, stopLoading } from '@/lib/ui/uiSlice';
import { renderWithProviders } from '@/test/render';
import { GlobalSpinner } from './GlobalSpinner';

describe('GlobalSpinner', () => {
  it('shows while the global loading flag is set', () => {
    const { store } = renderWithProviders(<GlobalSpinner />);
    expect(screen.queryByTestId('global-spinner')).not.toBeInTheDocument();

    act(() => {
      store.dispatch(startLoading());
      store.dispatch(startLoading());
    });
    expect(screen.getByTestId('global-spinner')).toBeInTheDocument();

    act(() => store.dispatch(stopLoading()));
    expect(screen.getByTestId('global-spinner')).toBeInTheDocument();

    act(() => store.dispatch(stopLoading()));
    expect(screen.queryByTestId('global-spinner')).not.toBeInTheDocument();
  });
});
