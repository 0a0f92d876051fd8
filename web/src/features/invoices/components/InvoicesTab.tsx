import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  List,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { InvoiceStanding } from '@/components/InvoiceStanding';
import { Section } from '@/components/Section';
import { useTabSave, useTabState } from '@/components/save/SaveFlow';
import { errorMessageOf } from '@/lib/apiError';
import { formatPricePlusGst } from '@/lib/money';
import type { StaffStockTabProps } from '@/lib/tabs/stockPageTabs';
import { safeHttpUrl } from '@/lib/website';
import {
  useCreateContactMutation,
  useCreateRepeatingInvoiceMutation,
  useSaveInvoiceDataMutation,
  useStockInvoicesQuery,
  useUnassignedInvoicesQuery,
  type StockInvoiceData,
  type UnassignedInvoice,
} from '../api/invoicesApi';
import { useServiceOrder, type StockServiceOrder } from '../api/serviceOrder';
import {
  assignedInvoiceIds,
  invoiceRowView,
  nextScheduledText,
  parseAmount,
  repeatingInvoiceFailure,
} from '../model/invoices';

/** The selector's value for 'no repeating invoice'. */
const NONE = '';

/** The stock's repeating invoice: chosen here, saved by the page's Save button. */
function RepeatingInvoiceSelector({ data }: { data: StockInvoiceData }) {
  const saved = data.repeatingInvoiceId ?? NONE;
  const [chosen, setChosen] = useTabState('invoices', () => saved);
  const [save] = useSaveInvoiceDataMutation();

  useTabSave({
    dirty: chosen !== saved,
    async save() {
      await save({ ticker: data.combinedTicker, repeatingInvoiceId: chosen || null }).unwrap();
    },
  });

  const current = data.repeatingInvoices.find((r) => r.id === chosen);
  const url = safeHttpUrl(current?.url);
  return (
    <Stack gap={4}>
      <NativeSelect
        label="Repeating invoice"
        value={chosen}
        data={[
          { value: NONE, label: '--None--' },
          ...data.repeatingInvoices.map((r) => ({ value: r.id, label: r.text })),
        ]}
        onChange={(event) => setChosen(event.currentTarget.value)}
      />
      {current && (
        <Text size="sm" data-testid="repeating-invoice-next">
          {url ? (
            <Anchor href={url} target="_blank" rel="noreferrer">
              {nextScheduledText(current)}
            </Anchor>
          ) : (
            nextScheduledText(current)
          )}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        The choice is saved with the Save button at the top of the page.
      </Text>
    </Stack>
  );
}

type Outcome = { ok: true; text: string } | { ok: false; text: string } | null;

function OutcomeText({ outcome, testId }: { outcome: Outcome; testId: string }) {
  if (!outcome) return null;
  return (
    <Alert color={outcome.ok ? 'green' : 'red'} role={outcome.ok ? 'status' : 'alert'} data-testid={testId}>
      {outcome.text}
    </Alert>
  );
}

/** What Assign and Unassign are doing: the invoice and which of the two, while saveInvoiceData runs. */
type Busy = { invoiceId: string; kind: 'assign' | 'unassign' } | null;

/**
 * The stock's invoices (those given by hand each with 'Unassign'; those its reference matches stay) and
 * the assignment of one of the unassigned invoices to it. Both save at once through saveInvoiceData with
 * every invoice the stock then has by hand, leaving the repeating invoice choice as it is.
 */
function InvoicesSection({ data }: { data: StockInvoiceData }) {
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
      <Table striped verticalSpacing={4} data-testid="invoice-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Date</Table.Th>
            <Table.Th>Total</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Assigned</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.invoices.map((invoice) => {
            const view = invoiceRowView(data.combinedTicker, invoice);
            const unassigning = busy?.kind === 'unassign' && busy.invoiceId === invoice.invoiceID;
            return (
              <Table.Tr key={view.id} data-testid="invoice-row">
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
          })}
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
  const { data: unassigned, error, isLoading } = useUnassignedInvoicesQuery();
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

function ContactSection({ stockId, data }: { stockId: string; data: StockInvoiceData }) {
  const [createContact, { isLoading }] = useCreateContactMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const create = async () => {
    setOutcome(null);
    try {
      const answer = await createContact({ stockId, ticker: data.combinedTicker }).unwrap();
      setOutcome(
        answer.success
          ? { ok: true, text: `Contact created: ${answer.contactId ?? ''}` }
          : { ok: false, text: answer.errorMessage || 'The contact was not created' },
      );
    } catch (error) {
      setOutcome({ ok: false, text: errorMessageOf(error) });
    }
  };
  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="contact-id">
        {data.contactId ? `Contact: ${data.contactId}` : 'No contact in the accounting system yet'}
        {data.reference && ` · Reference: ${data.reference}`}
      </Text>
      <Group>
        <Button variant="default" onClick={() => void create()} disabled={isLoading}>
          {isLoading ? 'Creating...' : 'Create Contact'}
        </Button>
      </Group>
      <OutcomeText outcome={outcome} testId="create-contact-result" />
    </Stack>
  );
}

function RepeatingInvoiceCreator({ stockId, data }: { stockId: string; data: StockInvoiceData }) {
  const { price: servicePrice } = useServiceOrder(data.combinedTicker);
  const [amount, setAmount] = useState(() => String(servicePrice ?? data.defaultRepeatingAmount));
  const [edited, setEdited] = useState(false);
  // The order's price arrives after the tab's data: it replaces the default unless someone typed already.
  useEffect(() => {
    if (servicePrice !== undefined && !edited) setAmount(String(servicePrice));
  }, [servicePrice, edited]);
  const [createRepeating, { isLoading }] = useCreateRepeatingInvoiceMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const parsed = parseAmount(amount);

  const create = async () => {
    setOutcome(null);
    // Refused here, before anything is sent.
    if (parsed === null) {
      setOutcome({ ok: false, text: repeatingInvoiceFailure('amount must be a number more than 0') });
      return;
    }
    try {
      const answer = await createRepeating({ stockId, ticker: data.combinedTicker, amount: parsed }).unwrap();
      setOutcome(
        answer.success
          ? { ok: true, text: `Repeating invoice created: ${answer.repeatingInvoice?.text ?? ''}` }
          : { ok: false, text: repeatingInvoiceFailure(answer.errorMessage || 'no reason given') },
      );
    } catch (error) {
      setOutcome({ ok: false, text: repeatingInvoiceFailure(errorMessageOf(error)) });
    }
  };

  return (
    <Stack gap="xs">
      <Group align="end" gap="sm" wrap="wrap">
        <TextInput
          label="Amount (AUD, excluding GST)"
          value={amount}
          onChange={(event) => {
            setEdited(true);
            setAmount(event.currentTarget.value);
          }}
          inputMode="decimal"
          description={parsed !== null ? formatPricePlusGst(parsed) : undefined}
          w={{ base: '100%', xs: 220 }}
        />
        <Button variant="default" onClick={() => void create()} disabled={isLoading}>
          {isLoading ? 'Creating...' : 'Create Repeating Invoice'}
        </Button>
      </Group>
      <OutcomeText outcome={outcome} testId="create-repeating-result" />
    </Stack>
  );
}

/** The service order the stock was created from: what was ordered, by whom, for whom; 'None' without one. */
function ServiceOrderSummary({ combinedTicker }: { combinedTicker: string }) {
  const { order, isLoading, error } = useServiceOrder(combinedTicker);
  if (isLoading) return <Loader size="sm" aria-label="Loading the service order" />;
  if (error) return <Text c="red">Unable to load the service order: {errorMessageOf(error)}</Text>;
  if (!order) return <Text c="dimmed">None</Text>;
  return <OrderDetails order={order} />;
}

function OrderDetails({ order }: { order: NonNullable<StockServiceOrder> }) {
  const rows: Array<[string, string]> = [
    ['Ordered', new Date(order.timestamp).toLocaleDateString('en-AU', { dateStyle: 'medium' })],
    ['Company', order.companyName],
    [
      'Option',
      order.option ? `${order.option.name}: ${formatPricePlusGst(order.option.price)}` : 'None chosen',
    ],
    ['Contact', [order.contactName, order.contactEmail, order.contactPhone].filter(Boolean).join(' · ')],
    ['ABN', order.abn],
    ['Billing address', order.address],
    ['Authorised by', order.authorisedBy],
  ];
  return (
    <Stack gap={4} data-testid="service-order-summary">
      {rows.map(([label, value]) => (
        <Text key={label} size="sm">
          <Text span fw={600}>
            {label}:
          </Text>{' '}
          {value || '—'}
        </Text>
      ))}
      {order.option && order.option.lineItems.length > 0 && (
        <List size="sm">
          {order.option.lineItems.map((item) => (
            <List.Item key={item}>{item}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/** Staff stock page, Invoices tab (spec section 2; InvoiceTotal): the stock's invoicing in the accounting system. */
export function InvoicesTab({ stock }: StaffStockTabProps) {
  const { data, error, isLoading } = useStockInvoicesQuery(stock.combinedTicker);
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading invoices" />
      </Center>
    );
  }
  if (!data) {
    return (
      <Alert color="red" role="alert" title="Unable to load the invoices">
        {errorMessageOf(error)}
      </Alert>
    );
  }
  return (
    <Stack gap="lg" maw={960}>
      <Section order={4} title="Repeating Invoice">
        <RepeatingInvoiceSelector data={data} />
      </Section>
      <Section order={4} title="Invoices">
        <InvoicesSection data={data} />
      </Section>
      <Section order={4} title="Contact">
        <ContactSection stockId={stock.id} data={data} />
      </Section>
      <Section order={4} title="Create Repeating Invoice">
        <RepeatingInvoiceCreator stockId={stock.id} data={data} />
      </Section>
      <Section order={4} title="Service Order">
        <ServiceOrderSummary combinedTicker={data.combinedTicker} />
      </Section>
    </Stack>
  );
}
