import { Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { formatDate, type ClientStockDto } from '@irp/proto';
import type { ReactNode } from 'react';
import { DashboardTick } from '@/components/DashboardTick';
import { ClientInvoiceCell, ClientTickerLink, EmailLines, WebsiteLink } from './ClientStockCells';

interface ClientStockListProps {
  stocks: readonly ClientStockDto[];
  withInvoice: boolean;
}

interface Column {
  label: string;
  render: (stock: ClientStockDto) => ReactNode;
}

const apiKey = (stock: ClientStockDto) =>
  stock.apiKey ? (
    <span style={{ fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' }}>
      {stock.apiKey}
    </span>
  ) : null;

/** Spec section 2 (Client dashboard): the columns in order; Invoice only with the Invoicing role. */
function columnsFor(withInvoice: boolean): Column[] {
  const columns: Column[] = [
    { label: 'Ticker', render: (s) => <ClientTickerLink stock={s} /> },
    { label: 'Created', render: (s) => formatDate(s.created) },
    { label: 'API Key', render: apiKey },
    { label: 'Website', render: (s) => <WebsiteLink url={s.websiteUrl} /> },
    { label: 'Email marketing', render: (s) => <DashboardTick value={s.emailMarketing === true} /> },
    // The API key and confirmation emails need ViewConfig on the stock: blank without (the gateway leaves them out).
    { label: 'Confirmation Email', render: (s) => <EmailLines value={s.confirmationEmail ?? ''} /> },
  ];
  if (withInvoice) columns.push({ label: 'Invoice', render: (s) => <ClientInvoiceCell stock={s} /> });
  return columns;
}

export function ClientStockTable({ stocks, withInvoice }: ClientStockListProps) {
  const columns = columnsFor(withInvoice);
  return (
    <Table.ScrollContainer minWidth={800} type="native">
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label} scope="col">
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody data-testid="client-dashboard-rows">
          {stocks.map((stock) => (
            <Table.Tr key={stock.id}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.render(stock)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per stock with the same fields. */
export function ClientStockCards({ stocks, withInvoice }: ClientStockListProps) {
  const details = columnsFor(withInvoice).filter((c) => c.label !== 'Ticker' && c.label !== 'Created');
  return (
    <Stack gap="xs" data-testid="client-dashboard-rows">
      {stocks.map((stock) => (
        <Paper key={stock.id} withBorder p="sm" radius="sm">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <ClientTickerLink stock={stock} />
            <Text size="sm" c="dimmed">
              {formatDate(stock.created)}
            </Text>
          </Group>
          {stock.companyName && (
            <Text size="sm" mb={4}>
              {stock.companyName}
            </Text>
          )}
          <SimpleGrid cols={1} spacing={4} verticalSpacing={4}>
            {details.map((c) => (
              <div key={c.label} style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  {c.label}
                </Text>
                <div style={{ fontSize: 'var(--mantine-font-size-sm)', overflowWrap: 'anywhere' }}>
                  {c.render(stock)}
                </div>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}
