import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { errorMessageOf } from '@/lib/apiError';

/** Spec section 9: the saved text lasts 3 seconds ('Nothing to Save' goes away as quickly). */
export const SAVED_TEXT_MS = 3000;
export const NOTHING_TO_SAVE = 'Nothing to Save';

export type SaveState = 'idle' | 'saving' | 'saved';

/** What a tab hands its page so the page's one Save button saves it (see `useTabSave`). */
export interface TabSave {
  /** The tab holds changes to send; when false, Save says 'Nothing to Save' and sends nothing. */
  dirty: boolean;
  /** Checked before anything else: a message here is shown as the failure and nothing is sent. */
  validate?: () => string | null;
  /**
   * Sends the changes. A rejection is the failure: its message (the server's errorMessage for an API
   * error, see lib/apiError) shows in the 'Save failed' modal and the button returns to Save.
   */
  save: () => Promise<void>;
}

interface SaveFlowValue {
  state: SaveState;
  /** 'Nothing to Save' shows. */
  nothingToSave: boolean;
  /** The failure the modal shows. */
  failure: string | null;
  save: () => Promise<void>;
  dismissNothingToSave: () => void;
  dismissFailure: () => void;
  register: (tab: RefObject<TabSave>) => () => void;
  registerPageSave: (page: RefObject<TabSave>) => () => void;
  /** Per-tab values kept while the page lives, so switching tabs keeps unsaved edits. */
  tabStates: ReadonlyMap<string, unknown>;
  setTabState: (key: string, next: (states: ReadonlyMap<string, unknown>) => unknown) => void;
}

const SaveFlowContext = createContext<SaveFlowValue | null>(null);

function useSaveFlowContext(hook: string): SaveFlowValue {
  const flow = useContext(SaveFlowContext);
  if (!flow) throw new Error(`${hook} is used outside a SaveFlowProvider (a stock page)`);
  return flow;
}

/**
 * The save flow of a page with one Save button for its tabs (both stock pages): Save, Saving... while the
 * active tab's save runs, Saved! for 3 seconds, 'Nothing to Save' when the tab has no changes, and a
 * failure in a modal (spec section 8: "Save stock failure: the server's errorMessage in a modal").
 */
export function SaveFlowProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SaveState>('idle');
  // Counts the clicks that found nothing to save, so each one shows the notice for the full 3 seconds.
  const [nothingToSave, setNothingToSave] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  const [tabStates, setTabStates] = useState<ReadonlyMap<string, unknown>>(() => new Map());
  const active = useRef<RefObject<TabSave> | null>(null);
  const pageSave = useRef<RefObject<TabSave> | null>(null);

  useEffect(() => {
    if (state !== 'saved') return undefined;
    const timer = setTimeout(() => setState('idle'), SAVED_TEXT_MS);
    return () => clearTimeout(timer);
  }, [state]);

  useEffect(() => {
    if (nothingToSave === 0) return undefined;
    const timer = setTimeout(() => setNothingToSave(0), SAVED_TEXT_MS);
    return () => clearTimeout(timer);
  }, [nothingToSave]);

  const register = useCallback((tab: RefObject<TabSave>) => {
    active.current = tab;
    return () => {
      // The next tab may have registered already (its effect can run before this cleanup is called).
      if (active.current === tab) active.current = null;
    };
  }, []);

  const registerPageSave = useCallback((page: RefObject<TabSave>) => {
    pageSave.current = page;
    return () => {
      if (pageSave.current === page) pageSave.current = null;
    };
  }, []);

  const busy = useRef(false);
  const save = useCallback(async () => {
    if (busy.current) return;
    // The shown tab's own save, else what the page saves on a tab that hands it nothing (usePageSave).
    const tab = active.current?.current ?? pageSave.current?.current;
    const invalid = tab?.validate?.() ?? null;
    if (invalid) {
      setFailure(invalid);
      return;
    }
    if (!tab?.dirty) {
      setNothingToSave((n) => n + 1);
      return;
    }
    busy.current = true;
    setNothingToSave(0);
    setState('saving');
    try {
      await tab.save();
      setState('saved');
    } catch (error) {
      setState('idle');
      setFailure(errorMessageOf(error));
    } finally {
      busy.current = false;
    }
  }, []);

  const setTabState = useCallback(
    (key: string, next: (states: ReadonlyMap<string, unknown>) => unknown) =>
      setTabStates((states) => new Map(states).set(key, next(states))),
    [],
  );

  const value = useMemo<SaveFlowValue>(
    () => ({
      state,
      nothingToSave: nothingToSave > 0,
      failure,
      save,
      dismissNothingToSave: () => setNothingToSave(0),
      dismissFailure: () => setFailure(null),
      register,
      registerPageSave,
      tabStates,
      setTabState,
    }),
    [state, nothingToSave, failure, save, register, registerPageSave, tabStates, setTabState],
  );
  return <SaveFlowContext.Provider value={value}>{children}</SaveFlowContext.Provider>;
}

/** The page's side of the flow: the button state and its actions (used by SaveButton). */
export function useSaveFlow(): Pick<
  SaveFlowValue,
  'state' | 'nothingToSave' | 'failure' | 'save' | 'dismissNothingToSave' | 'dismissFailure'
> {
  return useSaveFlowContext('useSaveFlow');
}

/**
 * A tab's side of the flow: while the tab is shown, the page's Save button checks `dirty` and calls
 * `save` (always the values of the latest render).
 */
export function useTabSave(tab: TabSave): void {
  const { register } = useSaveFlowContext('useTabSave');
  const latest = useRef(tab);
  useEffect(() => {
    latest.current = tab;
  });
  useEffect(() => register(latest), [register]);
}

/**
 * The page's side of what Save saves: used on a tab that shows the Save button but hands the page nothing
 * of its own with `useTabSave` (the staff stock page: the stock's fields, edited on Config and kept while
 * other tabs show). Without it, such a tab answers 'Nothing to Save'.
 */
export function usePageSave(page: TabSave): void {
  const { registerPageSave } = useSaveFlowContext('usePageSave');
  const latest = useRef(page);
  useEffect(() => {
    latest.current = page;
  });
  useEffect(() => registerPageSave(latest), [registerPageSave]);
}

/**
 * State a tab keeps while its page lives (tabs unmount when another one is chosen): like useState, under
 * a key unique on the page. `initial` is used until the first update.
 */
export function useTabState<T>(
  key: string,
  initial: () => T,
): [T, (update: T | ((current: T) => T)) => void] {
  const { tabStates, setTabState } = useSaveFlowContext('useTabState');
  const initialRef = useRef(initial);
  useEffect(() => {
    initialRef.current = initial;
  });
  const value = tabStates.has(key) ? (tabStates.get(key) as T) : initial();
  const set = useCallback(
    (update: T | ((current: T) => T)) =>
      setTabState(key, (states) => {
        const current = states.has(key) ? (states.get(key) as T) : initialRef.current();
        return typeof update === 'function' ? (update as (current: T) => T)(current) : update;
      }),
    [key, setTabState],
  );
  return [value, set];
}
