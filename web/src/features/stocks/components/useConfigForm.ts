import { INVALID_TICKER_MESSAGE, isValidTicker, type EditableStockField, type Stock } from '@irp/proto';
import { useNavigate } from 'react-router-dom';
import { useTabSave, useTabState } from '@/components/save/SaveFlow';
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
 * The Config tab's form, kept by the page while other tabs show, and its save through the page's Save
 * button: the changed fields of a stock (the id and only those), or every field of a new one on /create.
 */
export function useConfigForm(stock: Stock | null) {
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

  useTabSave({
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
  });

  const onChange = (patch: Partial<StockDraft>) =>
    setForm((current) => ({ ...current, draft: { ...current.draft, ...patch } }));
  return { draft: form.draft, onChange };
}
