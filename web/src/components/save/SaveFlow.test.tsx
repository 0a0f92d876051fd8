import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { SaveButton } from './SaveButton';
import { SaveFlowProvider, useTabSave, useTabState, type TabSave } from './SaveFlow';

function deferred() {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A tab that registers what the test gives it. */
function FakeTab({ tab }: { tab: TabSave }) {
  useTabSave(tab);
  return <p>tab</p>;
}

/** A tab whose text field lives in the page's tab state. */
function DraftTab() {
  const [text, setText] = useTabState('draft', () => 'initial');
  return <input aria-label="Draft" value={text} onChange={(e) => setText(e.currentTarget.value)} />;
}

function Page({ children }: { children: ReactNode }) {
  return (
    <SaveFlowProvider>
      <SaveButton />
      {children}
    </SaveFlowProvider>
  );
}

const saveButton = (name: string) => screen.getByRole('button', { name });

/** Lets the save's promise chain and React's updates run without moving the fake clock. */
const settle = () => act(async () => {});

describe('the save flow', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('cycles Save, Saving... (disabled), Saved! for 3 seconds, then Save', async () => {
    const answer = deferred();
    const save = vi.fn(() => answer.promise);
    renderWithProviders(
      <Page>
        <FakeTab tab={{ dirty: true, save }} />
      </Page>,
    );

    fireEvent.click(saveButton('Save'));
    await settle();
    expect(saveButton('Saving...')).toBeDisabled();
    // A second click while saving sends nothing more.
    fireEvent.click(saveButton('Saving...'));
    expect(save).toHaveBeenCalledTimes(1);

    answer.resolve();
    await settle();
    expect(saveButton('Saved!')).toBeEnabled();
    act(() => vi.advanceTimersByTime(2999));
    expect(saveButton('Saved!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(saveButton('Save')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("says 'Nothing to Save' when the tab has no changes, sends nothing, and the notice goes after 3 s", async () => {
    const save = vi.fn(() => Promise.resolve());
    renderWithProviders(
      <Page>
        <FakeTab tab={{ dirty: false, save }} />
      </Page>,
    );

    fireEvent.click(saveButton('Save'));
    await settle();
    const notice = screen.getByRole('dialog');
    expect(within(notice).getByRole('status')).toHaveTextContent('Nothing to Save');
    expect(save).not.toHaveBeenCalled();
    expect(saveButton('Save')).toBeEnabled();

    act(() => vi.advanceTimersByTime(3000));
    await settle();
    expect(screen.queryByText('Nothing to Save')).not.toBeInTheDocument();
  });

  it("says 'Nothing to Save' on a tab that registered nothing to save", async () => {
    renderWithProviders(
      <Page>
        <p>placeholder</p>
      </Page>,
    );
    fireEvent.click(saveButton('Save'));
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('Nothing to Save');
  });

  it('shows a failed save as the error message in the Save failed modal and returns to Save', async () => {
    const answer = deferred();
    renderWithProviders(
      <Page>
        <FakeTab tab={{ dirty: true, save: () => answer.promise }} />
      </Page>,
    );
    fireEvent.click(saveButton('Save'));
    await settle();
    // An RTK Query error: the gateway's errorMessage is what shows.
    answer.reject({ status: 400, data: { errorMessage: 'Invalid email address in Contact emails: x' } });
    await settle();

    const dialog = screen.getByRole('dialog', { name: 'Save failed' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      /^Invalid email address in Contact emails: x$/,
    );
    expect(saveButton('Save')).toBeEnabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await settle();
    expect(screen.queryByRole('dialog', { name: 'Save failed' })).not.toBeInTheDocument();
  });

  it("shows a tab's validation message the same way, without saving", async () => {
    const save = vi.fn(() => Promise.resolve());
    renderWithProviders(
      <Page>
        <FakeTab tab={{ dirty: true, validate: () => 'Please define a valid ticker', save }} />
      </Page>,
    );
    fireEvent.click(saveButton('Save'));
    await settle();
    expect(screen.getByRole('dialog', { name: 'Save failed' })).toHaveTextContent(
      'Please define a valid ticker',
    );
    expect(save).not.toHaveBeenCalled();
  });

  it('saves the tab shown now, with its latest values', async () => {
    const saved: string[] = [];
    function Switcher() {
      const [which, setWhich] = useState<'a' | 'b'>('a');
      return (
        <>
          <button type="button" onClick={() => setWhich('b')}>
            Show B
          </button>
          {which === 'a' ? (
            <FakeTab tab={{ dirty: true, save: async () => void saved.push('a') }} />
          ) : (
            <FakeTab tab={{ dirty: true, save: async () => void saved.push('b') }} />
          )}
        </>
      );
    }
    renderWithProviders(
      <Page>
        <Switcher />
      </Page>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show B' }));
    fireEvent.click(saveButton('Save'));
    await settle();
    expect(saved).toEqual(['b']);
  });

  it("keeps a tab's state while another tab shows", async () => {
    function Switcher() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown((s) => !s)}>
            Toggle
          </button>
          {shown && <DraftTab />}
        </>
      );
    }
    renderWithProviders(
      <Page>
        <Switcher />
      </Page>,
    );
    expect(screen.getByLabelText('Draft')).toHaveValue('initial');
    fireEvent.change(screen.getByLabelText('Draft'), { target: { value: 'edited' } });
    fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
    expect(screen.queryByLabelText('Draft')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
    expect(screen.getByLabelText('Draft')).toHaveValue('edited');
  });
});
