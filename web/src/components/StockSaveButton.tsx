import { Button, type ButtonProps } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';

export type SaveCycleState = 'idle' | 'saving' | 'saved';

/** Spec section 9: the saved text lasts 3 seconds. */
export const SAVED_TEXT_MS = 3000;

const LABELS: Record<SaveCycleState, string> = { idle: 'Save', saving: 'Saving...', saved: 'Saved!' };

/**
 * The Save button's text cycle of the stock pages (spec section 2): Save, Saving... while the work runs,
 * Saved! for 3 seconds after it succeeded, back to Save at once when it failed.
 */
export function useSaveCycle() {
  const [state, setState] = useState<SaveCycleState>('idle');

  useEffect(() => {
    if (state !== 'saved') return undefined;
    const timer = setTimeout(() => setState('idle'), SAVED_TEXT_MS);
    return () => clearTimeout(timer);
  }, [state]);

  /** Runs `work` (true = saved) under the cycle. */
  const run = useCallback(async (work: () => Promise<boolean>): Promise<boolean> => {
    setState('saving');
    let saved = false;
    try {
      saved = await work();
    } finally {
      setState(saved ? 'saved' : 'idle');
    }
    return saved;
  }, []);

  return { state, run };
}

interface StockSaveButtonProps extends Omit<ButtonProps, 'children'> {
  state: SaveCycleState;
  onClick: () => void;
}

export function StockSaveButton({ state, onClick, ...props }: StockSaveButtonProps) {
  return (
    <Button
      {...props}
      onClick={onClick}
      disabled={state === 'saving'}
      color={state === 'saved' ? 'green' : undefined}
    >
      {LABELS[state]}
    </Button>
  );
}
