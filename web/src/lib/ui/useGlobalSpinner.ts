import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { startLoading, stopLoading } from './uiSlice';

/** Runs async work with the global spinner overlay shown until it settles. */
export function useGlobalSpinner(): <T>(work: () => Promise<T>) => Promise<T> {
  const dispatch = useDispatch();
  return useCallback(
    async <T>(work: () => Promise<T>): Promise<T> => {
      dispatch(startLoading());
      try {
        return await work();
      } finally {
        dispatch(stopLoading());
      }
    },
    [dispatch],
  );
}
