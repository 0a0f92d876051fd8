import { Anchor, Button, Group, Loader, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useFollowingPages } from '@/api/useFollowingPages';
import { InvoiceStanding } from '@/components/InvoiceStanding';
import { tableSpacer, VirtualRows } from '@/components/VirtualRows';
import { errorMessageOf } from '@/lib/apiError';
import {
  invoicesApi,
  useSaveInvoiceDataMutation,
  useUnassignedInvoicesQuery,
  type StockInvoiceData,
  type UnassignedInvoice,
} from '../api/invoicesApi';
import { assignedInvoiceIds, invoiceRowView } from '../model/invoices';
import { OutcomeText, type Outcome } from './OutcomeText';

/** What Assign and Unassign are doing: the invoice and which of the two, while saveInvoiceData runs. */
type Busy = { invoiceId: string; kind: 'assign' | 'unassign' } | null;

/**
 * The stock's invoices (those given by hand each with 'Unassign'; those its reference matches stay) and
 * the assignment of one of the unassigned invoices to it. Both save at once through saveInvoiceData with
 * every invoice the stock then has by hand, leaving the repeating invoice choice as it is.
 */
export function InvoicesSection({ data }: { data: StockInvoiceData }) {
  const [save] = useSaveInvoiceDataMutation();
  const [busy, setBusy] = useState<Busy>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const assigned = assignedInvoiceIds(data);

  const change = async (next: NonNullable<Busy>, invoices: string[], label: string) => {
    setBusy(next);
    setOutcome(null);
    try {
      await save({ ticker: data.combinedTicker, invoices }).unwrap();
      setOutcome({
        ok: true,
        text: next.kind === 'assign' ? `Assigned ${label} to ${data.combinedTicker}` : `Unassigned ${label}`,
      });
      return true;
    } catch (error) {
      setOutcome({
        ok: false,
        text: `${next.kind === 'assign' ? 'Unable to assign' : 'Unable to unassign'} ${label}: ${errorMessageOf(error)}`,
      });
      return false;
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="sm">
      <InvoiceList
        data={data}
        busy={busy}
        onUnassign={(invoice) =>
          void change(
            { invoiceId: invoice.invoiceID, kind: 'unassign' },
            assigned.filter((id) => id !== invoice.invoiceID),
            invoice.invoiceNumber || invoice.invoiceID,
          )
        }
      />
      <AssignInvoice
        busy={busy}
        onAssign={(invoice) =>
          change(
            { invoiceId: invoice.invoiceID, kind: 'assign' },
            [...assigned, invoice.invoiceID],
            invoice.text,
          )
        }
      />
      <OutcomeText outcome={outcome} testId="invoice-assignment-result" />
    </Stack>
  );
}

type Invoice = StockInvoiceData['invoices'][number];

/** A row's height before it is measured (the Unassign button's line). */
const ROW_HEIGHT = 35;
const TABLE_SPACER = tableSpacer(5);
const invoiceKey = (invoice: Invoice) => invoice.invoiceID;

function InvoiceList({
  data,
  busy,
  onUnassign,
}: {
  data: StockInvoiceData;
  busy: Busy;
  onUnassign: (invoice: Invoice) => void;
}) {
  if (data.invoices.length === 0) return <Text c="dimmed">No invoices</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table
        striped
        verticalSpacing={4}
        data-testid="invoice-list"
        aria-label="Invoices"
        aria-rowcount={data.invoices.length + 1}
      >
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th>Number</Table.Th>
            <Table.Th>Date</Table.Th>
            <Table.Th>Total</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Assigned</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <VirtualRows
            rows={data.invoices}
            rowKey={invoiceKey}
            estimateSize={ROW_HEIGHT}
            kind="row"
            spacer={TABLE_SPACER}
            renderRow={(invoice, _index, position) => {
              const view = invoiceRowView(data.combinedTicker, invoice);
              const unassigning = busy?.kind === 'unassign' && busy.invoiceId === invoice.invoiceID;
              return (
                <Table.Tr {...position} data-testid="invoice-row">
                  <Table.Td>
                    <Anchor href={view.href} target="_blank" rel="noreferrer">
                      {view.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{view.date}</Table.Td>
                  <Table.Td>{view.total}</Table.Td>
                  <Table.Td>
                    <InvoiceStanding standing={view} />
                  </Table.Td>
                  <Table.Td>
                    {invoice.assigned ? (
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => onUnassign(invoice)}
                        disabled={busy !== null}
                        aria-label={`Unassign ${view.number}`}
                      >
                        {unassigning ? 'Unassigning...' : 'Unassign'}
                      </Button>
                    ) : (
                      <Text span size="sm" c="dimmed">
                        By reference
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            }}
          />
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The selector's value for 'no invoice chosen'. */
const NO_INVOICE = '';

/** One of the invoices no stock has (the accounting page's list), assigned to this stock at once. */
function AssignInvoice({
  busy,
  onAssign,
}: {
  busy: Busy;
  onAssign: (invoice: UnassignedInvoice) => Promise<boolean>;
}) {
  const { data: first, error, isLoading } = useUnassignedInvoicesQuery();
  // Every unassigned invoice is offered: the first page's, then the later pages' as they come.
  const later = useFollowingPages(
    invoicesApi.endpoints.laterUnassignedInvoices,
    (after) => after,
    'unassigned',
    first?.next,
  );
  const unassigned = useMemo(
    () => first && [...first.invoices, ...later.pages.flatMap((p) => p.invoices)],
    [first, later.pages],
  );
  const [chosen, setChosen] = useState(NO_INVOICE);
  if (isLoading) return <Loader size="sm" aria-label="Loading the unassigned invoices" />;
  if (!unassigned)
    return <Text c="red">Unable to load the unassigned invoices: {errorMessageOf(error)}</Text>;
  if (unassigned.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="no-unassigned-invoices">
        No unassigned invoices to assign
      </Text>
    );
  const invoice = unassigned.find((i) => i.invoiceID === chosen);
  const assigning = busy?.kind === 'assign';
  return (
    <Group align="end" gap="sm" wrap="wrap">
      <NativeSelect
        label="Assign an unassigned invoice"
        value={invoice ? chosen : NO_INVOICE}
        data={[
          { value: NO_INVOICE, label: '--Choose an invoice--' },
          ...unassigned.map((i) => ({ value: i.invoiceID, label: i.text })),
        ]}
        onChange={(event) => setChosen(event.currentTarget.value)}
        description={
          later.loading
            ? `Loading more invoices… ${unassigned.length.toLocaleString('en-AU')} shown so far`
            : undefined
        }
        error={later.error ? `More invoices could not be loaded: ${later.error}` : undefined}
        w={{ base: '100%', sm: 420 }}
      />
      <Button
        variant="default"
        disabled={!invoice || busy !== null}
        onClick={() => {
          if (invoice) void onAssign(invoice).then((ok) => ok && setChosen(NO_INVOICE));
        }}
      >
        {assigning ? 'Assigning...' : 'Assign'}
      </Button>
    </Group>
  );
}
