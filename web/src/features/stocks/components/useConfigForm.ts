import { INVALID_TICKER_MESSAGE, isValidTicker, type EditableStockField, type Stock } from '@irp/proto';
import { useNavigate } from 'react-router-dom';
import { usePageSave, useTabSave, useTabState, type TabSave } from '@/components/save/SaveFlow';
import { useSaveStockMutation } from '../api/stocksApi';
import { changedFields, draftFromStock, newStockDraft, stockFieldsOf, type StockDraft } from './stockDraft';

/** Only Change Ticker changes the ticker, and the exchange is fixed once created (docs/api/stocks.md). */
const FIXED_AFTER_CREATE: readonly EditableStockField[] = ['ticker', 'exchange'];

interface ConfigForm {
  /** The values as last saved: what the draft is compared with. */
  saved: StockDraft;
  draft: StockDraft;
}

/**
 * The stock's fields as the Config tab edits them, kept by the page while other tabs show, and their save:
 * the changed fields of a stock (the id and only those), or every field of a new one on /create.
 */
function useStockFields(stock: Stock | null) {
  const navigate = useNavigate();
  const [saveStock] = useSaveStockMutation();
  const [form, setForm] = useTabState<ConfigForm>('config', () => {
    const saved = stock ? draftFromStock(stock) : newStockDraft();
    return { saved, draft: saved };
  });
  // null on /create: a new stock sends everything.
  const fields = stock
    ? changedFields(form.saved, form.draft).filter((f) => !FIXED_AFTER_CREATE.includes(f))
    : null;

  const save: TabSave = {
    dirty: fields === null || fields.length > 0,
    validate: () => (isValidTicker(form.draft.ticker) ? null : INVALID_TICKER_MESSAGE),
    async save() {
      const body = stock
        ? { id: stock.id, ...stockFieldsOf(form.draft, fields ?? []) }
        : stockFieldsOf(form.draft);
      const result = await saveStock(body).unwrap();
      if (!result.success || !result.stock) throw new Error(result.errorMessage || 'The stock was not saved');
      if (!stock) {
        void navigate(`/stocks/${result.stock.combinedTicker}/config`);
        return;
      }
      const saved = draftFromStock(result.stock);
      setForm({ saved, draft: saved });
    },
  };
  return { form, setForm, save };
}

/** The Config tab's form, saved through the page's Save button while the tab shows. */
export function useConfigForm(stock: Stock | null) {
  const { form, setForm, save } = useStockFields(stock);
  useTabSave(save);
  const onChange = (patch: Partial<StockDraft>) =>
    setForm((current) => ({ ...current, draft: { ...current.draft, ...patch } }));
  return { draft: form.draft, onChange };
}

/**
 * The staff stock page's Save on a tab that saves nothing of its own (Announcements, which adds, edits and
 * sends in its own form and menu): the stock's fields, as Save on Config does, so
 * edits made on Config and kept while another tab shows are saved from there too; else 'Nothing to Save'.
 */
export function StockFieldsSave({ stock }: { stock: Stock }) {
  usePageSave(useStockFields(stock).save);
  return null;
}
