import { Alert, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatDateTime } from '@irp/proto';
import { useTabSave, useTabState } from '@/components/save/SaveFlow';
import type { StaffStockTabProps } from '@/lib/tabs/stockPageTabs';
import { useSaveMarketDataMutation } from '../api/marketApi';
import {
  MARKET_FIELDS,
  changedFields,
  formValuesOf,
  invalidField,
  saveBodyOf,
  type MarketFormValues,
} from '../model/marketForm';
import { StockDataSection } from './StockDataSection';

interface MarketForm {
  /** The values as last saved: what the typed values are compared with. */
  saved: MarketFormValues;
  values: MarketFormValues;
  updated: string | null;
}

/**
 * Staff stock page, Market tab (admins, spec section 2): the stock's current quote, saved by the page's
 * Save button (the changed fields as numbers), its updated time, and the Stock Data section.
 */
export function MarketTab({ stock }: StaffStockTabProps) {
  const quote = stock.currentMarketData ?? null;
  const [form, setForm] = useTabState<MarketForm>('market', () => {
    const saved = formValuesOf(quote);
    return { saved, values: saved, updated: quote?.updated ?? null };
  });
  const [saveMarketData] = useSaveMarketDataMutation();
  const fields = changedFields(form.saved, form.values);
  const unavailable = stock.unavailable?.includes('reports') ?? false;

  useTabSave({
    dirty: fields.length > 0,
    validate: () => invalidField(form.values),
    async save() {
      const result = await saveMarketData({
        combinedTicker: stock.combinedTicker,
        body: saveBodyOf(form.values, fields),
      }).unwrap();
      const saved = formValuesOf(result);
      setForm({ saved, values: saved, updated: result.updated });
    },
  });

  return (
    <Stack gap="xl" maw={960}>
      <Stack gap="sm">
        <Title order={3}>Market Data</Title>
        {unavailable && (
          <Alert color="yellow" role="alert">
            The market data service did not answer: the fields show no current quote. Try again shortly.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          {MARKET_FIELDS.map(({ field, label }) => (
            <TextInput
              key={field}
              label={label}
              inputMode="decimal"
              value={form.values[field]}
              onChange={(event) => {
                const text = event.currentTarget.value;
                setForm((current) => ({ ...current, values: { ...current.values, [field]: text } }));
              }}
            />
          ))}
        </SimpleGrid>
        <Text size="sm" c="dimmed" data-testid="market-updated">
          Updated: {form.updated ? formatDateTime(form.updated) : 'never'}
        </Text>
      </Stack>
      <StockDataSection stockId={stock.id} />
    </Stack>
  );
}
