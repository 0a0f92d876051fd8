import { Badge, Button, Group, Modal, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  INVALID_TICKER_MESSAGE,
  displayTicker,
  formatDateTime,
  isValidTicker,
  type EditableStockField,
  type Stock,
} from '@irp/proto';
import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { SAVED_TEXT_MS, StockSaveButton, useSaveCycle } from '@/components/StockSaveButton';
import { errorMessageOf } from '@/lib/apiError';
import { useSaveStockMutation } from '../api/stocksApi';
import { StockConfigTab } from './StockConfigTab';
import { StockNotesTab } from './StockNotesTab';
import { StockPlaceholderTab } from './StockPlaceholderTab';
import { changedFields, draftFromStock, newStockDraft, stockFieldsOf, type StockDraft } from './stockDraft';
import { stockTabLabel, tabHasSaveButton, type StockTab } from './stockTabs';

export const NOTHING_TO_SAVE = 'Nothing to Save';
export const SYNC_IN_PROGRESS = 'Sync in Progress';

/** Only Change Ticker changes the ticker, and the exchange is fixed once created (docs/api/stocks.md). */
const FIXED_AFTER_CREATE: readonly EditableStockField[] = ['ticker', 'exchange'];

interface StockEditorProps {
  /** The stock as last fetched; null on /create. */
  stock: Stock | null;
  /** The tabs the user may see, in order; empty on /create (the Config tab alone). */
  tabs: StockTab[];
  tab: StockTab;
  onTabChange?: (tab: StockTab) => void;
}

function StockTitle({ stock }: { stock: Stock | null }) {
  const heading = stock ? displayTicker(stock.ticker, stock.exchange) : 'Add New Stock';
  useDocumentTitle(`${heading} · IR Portal`);
  if (!stock) return <Title order={2}>{heading}</Title>;
  return (
    <Tooltip label={`Created ${formatDateTime(stock.created)}`} withArrow>
      <Title order={2} style={{ overflowWrap: 'anywhere' }}>
        {heading}{' '}
        <Text span inherit c="dimmed" fw={400}>
          {stock.companyName}
        </Text>
      </Title>
    </Tooltip>
  );
}

/**
 * The stock page (spec section 2) around a stock, or around a new one on /create: title, Save button,
 * 'Sync in Progress', tabs. It keeps the Config form's values so switching tabs keeps unsaved edits.
 */
export function StockEditor({ stock, tabs, tab, onTabChange }: StockEditorProps) {
  const navigate = useNavigate();
  const [saveStock] = useSaveStockMutation();
  const cycle = useSaveCycle();
  const [saved, setSaved] = useState<StockDraft>(() => (stock ? draftFromStock(stock) : newStockDraft()));
  const [draft, setDraft] = useState<StockDraft>(saved);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => setNotice(null), SAVED_TEXT_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const syncing = stock !== null && !stock.completedInitialPoll;
  const showSave = tabHasSaveButton(tab) && !syncing;

  async function save(): Promise<boolean> {
    if (tab !== 'config') {
      // The other tabs with a Save button arrive with their features; they have nothing to save yet.
      setNotice(NOTHING_TO_SAVE);
      return false;
    }
    if (!isValidTicker(draft.ticker)) {
      setFailure(INVALID_TICKER_MESSAGE);
      return false;
    }
    const fields = stock ? changedFields(saved, draft).filter((f) => !FIXED_AFTER_CREATE.includes(f)) : null;
    if (fields && fields.length === 0) {
      setNotice(NOTHING_TO_SAVE);
      return false;
    }
    setNotice(null);
    return cycle.run(async () => {
      try {
        const body = stock ? { id: stock.id, ...stockFieldsOf(draft, fields ?? []) } : stockFieldsOf(draft);
        const result = await saveStock(body).unwrap();
        if (!result.success || !result.stock) {
          setFailure(result.errorMessage || 'The stock was not saved');
          return false;
        }
        if (!stock) {
          void navigate(`/stocks/${result.stock.combinedTicker}/config`);
          return true;
        }
        const savedDraft = draftFromStock(result.stock);
        setSaved(savedDraft);
        setDraft(savedDraft);
        return true;
      } catch (error) {
        setFailure(errorMessageOf(error));
        return false;
      }
    });
  }

  let content: ReactNode;
  if (tab === 'config') {
    content = (
      <StockConfigTab
        stock={stock}
        draft={draft}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
      />
    );
  } else if (tab === 'notes' && stock) {
    content = <StockNotesTab combinedTicker={stock.combinedTicker} />;
  } else {
    content = <StockPlaceholderTab title={stockTabLabel(tab)} />;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <StockTitle stock={stock} />
        <Group gap="sm" wrap="wrap">
          {notice && (
            <Text role="status" c="dimmed" size="sm">
              {notice}
            </Text>
          )}
          {syncing && (
            <Badge color="orange" variant="light" size="lg">
              {SYNC_IN_PROGRESS}
            </Badge>
          )}
          {showSave && <StockSaveButton state={cycle.state} onClick={() => void save()} />}
        </Group>
      </Group>

      {tabs.length === 0 ? (
        content
      ) : (
        <Tabs value={tab} onChange={(value) => value && onTabChange?.(value as StockTab)} keepMounted={false}>
          <Tabs.List>
            {tabs.map((t) => (
              <Tabs.Tab key={t} value={t}>
                {stockTabLabel(t)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((t) => (
            <Tabs.Panel key={t} value={t} pt="md">
              {t === tab && content}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}

      <Modal opened={failure !== null} onClose={() => setFailure(null)} title="Save failed" centered>
        <Stack gap="md">
          <Text role="alert">{failure}</Text>
          <Button onClick={() => setFailure(null)} w="fit-content">
            OK
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
