import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { ChartDataRow } from '@irp/proto';
import { useState } from 'react';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { errorMessageOf } from '@/lib/apiError';
import { useLazyChartDataQuery, useUpdateChartDataMutation } from '../api/marketApi';

const price = (value: number) => value.toLocaleString('en-AU', { maximumFractionDigits: 4 });

const COLUMNS: readonly DataColumn<ChartDataRow>[] = [
  { label: 'Date', render: (row) => row.date, nowrap: true },
  { label: 'Open', render: (row) => price(row.open) },
  { label: 'High', render: (row) => price(row.high) },
  { label: 'Low', render: (row) => price(row.low) },
  { label: 'Close', render: (row) => price(row.close) },
  { label: 'Volume', render: (row) => row.volume.toLocaleString('en-AU') },
];

type UpdateResult = { ok: true; rowCount: number | null } | { ok: false; message: string };

/**
 * Stock Data (spec section 2): Display shows the stock's daily prices as stored; Update reads them from the
 * market-data provider ('Updated successfully' with the row count, or the provider's refusal).
 */
export function StockDataSection({ stockId }: { stockId: string }) {
  const [display, { data: rows, error, isFetching }] = useLazyChartDataQuery();
  const [updateChartData, { isLoading: updating }] = useUpdateChartDataMutation();
  const [result, setResult] = useState<UpdateResult | null>(null);

  async function update() {
    setResult(null);
    try {
      const answer = await updateChartData(stockId).unwrap();
      setResult(
        answer.success
          ? { ok: true, rowCount: answer.rowCount }
          : { ok: false, message: answer.errorMessage || 'The update failed' },
      );
    } catch (failure) {
      setResult({ ok: false, message: errorMessageOf(failure) });
    }
  }

  return (
    <Stack gap="sm">
      <Title order={3}>Stock Data</Title>
      <Group>
        <Button variant="default" loading={isFetching} onClick={() => void display(stockId)}>
          Display
        </Button>
        <Button loading={updating} onClick={() => void update()}>
          Update
        </Button>
      </Group>
      {result && (
        <Alert color={result.ok ? 'green' : 'red'} role={result.ok ? 'status' : 'alert'}>
          {result.ok
            ? `Updated successfully${result.rowCount === null ? '' : ` (${result.rowCount.toLocaleString('en-AU')} rows)`}`
            : result.message}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {errorMessageOf(error)}
        </Alert>
      )}
      {rows && (
        <>
          <Text size="sm" data-testid="stock-data-count">
            {rows.length.toLocaleString('en-AU')} {rows.length === 1 ? 'row' : 'rows'}
          </Text>
          <DataTable
            label="Stock Data"
            columns={COLUMNS}
            rows={rows}
            rowKey={(row) => row.date}
            empty="No daily prices stored yet: Update reads them from the market-data provider."
          />
        </>
      )}
    </Stack>
  );
}
