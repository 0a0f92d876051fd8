import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
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
  type StockInvoiceData,
} from '../api/invoicesApi';
import { useServiceOrder } from '../api/serviceOrder';
import { nextScheduledText, parseAmount, repeatingInvoiceFailure } from '../model/invoices';
import { InvoicesSection } from './InvoicesSection';
import { OutcomeText, type Outcome } from './OutcomeText';
import { ServiceOrderSummary } from './ServiceOrderSummary';

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
