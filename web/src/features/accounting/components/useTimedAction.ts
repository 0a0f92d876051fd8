import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessageOf } from '@/lib/apiError';

/** Spec section 9: a button's success text lasts 3 seconds. */
export const DONE_TEXT_MS = 3000;

export type ActionState = 'idle' | 'busy' | 'done';

/**
 * A button's action with its three texts ('Refresh Accounting', 'Refreshing...', 'Refreshed!'): busy while
 * it runs, done for 3 seconds after, and its failure's message (the server's errorMessage) kept to show.
 */
export function useTimedAction(action: () => Promise<unknown>) {
  const [state, setState] = useState<ActionState>('idle');
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });

  useEffect(() => {
    if (state !== 'done') return undefined;
    const timer = setTimeout(() => setState('idle'), DONE_TEXT_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const run = useCallback(async () => {
    setState('busy');
    setError(null);
    try {
      await latest.current();
      setState('done');
    } catch (failure) {
      setState('idle');
      setError(errorMessageOf(failure));
    }
  }, []);

  return { state, error, run, dismissError: () => setError(null) };
}

/** The button's text for each state. */
export const textOf = (state: ActionState, texts: Record<ActionState, string>): string => texts[state];
