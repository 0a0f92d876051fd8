import { Alert, Button, Group, List, Loader, NativeSelect, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Section } from '@/components/Section';
import { blockSpacer, VirtualRows } from '@/components/VirtualRows';
import type { AccountingPage } from '../api/accountingApi';
import { useAssignInvoicesMutation, useRefreshAccountingMutation } from '../api/accountingApi';
import { type InvoiceList, useInvoiceList } from '../api/useInvoiceList';
import { assignmentItems, IGNORE, initialChoice, UNSET } from '../model/assignments';
import { InvoiceLink } from './InvoiceLink';
import { textOf, useTimedAction } from './useTimedAction';

const None = () => <Text c="dimmed">None</Text>;

type Line = AccountingPage['invoices'][number];

interface InvoiceLinesProps {
  lines: readonly Line[];
  stocks: AccountingPage['stocks'];
  choiceOf: (invoiceId: string) => string;
  onChoose: (invoiceId: string, choice: string) => void;
  testId: string;
}

/** An invoice line's height before it is measured (the select's line). */
const LINE_HEIGHT = 44;
const lineKey = (line: Line) => line.invoiceID;

type Option = { value: string; label: string };

/** The choices every select has before the stocks. */
const FIXED_CHOICES: readonly Option[] = [
  { value: UNSET, label: '--Assign To--' },
  { value: IGNORE, label: 'Ignore' },
];

/**
 * One line's assign-to select. Its options are every stock with an API key (spec section 2): thousands, so
 * they are put in the page only once the select is used (focused, pressed or a key on it, each before the
 * browser opens its list); until then it holds '--Assign To--', 'Ignore' and its current choice, which it
 * shows. 20 lines of 20,000 stocks were 400,000 options made with the page: 9.5 s after the data on the
 * bench's machine (bench/README.md, stocks-dashboard: long lists).
 */
function AssignSelect({
  label,
  value,
  options,
  optionOf,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly Option[];
  optionOf: ReadonlyMap<string, Option>;
  onChange: (value: string) => void;
}) {
  const [used, setUsed] = useState(false);
  const use = () => setUsed(true);
  const current = optionOf.get(value);
  const data =
    used || !current
      ? options
      : FIXED_CHOICES.includes(current)
        ? FIXED_CHOICES
        : [...FIXED_CHOICES, current];
  return (
    <NativeSelect
      aria-label={label}
      style={{ flex: '1 1 16rem', maxWidth: '26rem' }}
      value={value}
      data={data}
      onFocus={use}
      onPointerDown={use}
      onKeyDown={use}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/**
 * Invoice lines, each with its link and the assign-to select (whose options are every stock: a long list of
 * lines renders only those near the screen, and each select its options only once used).
 */
function InvoiceLines({ lines, stocks, choiceOf, onChoose, testId }: InvoiceLinesProps) {
  const { options, optionOf } = useMemo(() => {
    const all = [...FIXED_CHOICES, ...stocks.map((s) => ({ value: s.ticker, label: s.label }))];
    return { options: all, optionOf: new Map(all.map((o) => [o.value, o])) };
  }, [stocks]);
  return (
    <div role="list">
      <VirtualRows
        rows={lines}
        rowKey={lineKey}
        estimateSize={LINE_HEIGHT}
        kind="listitem"
        spacer={blockSpacer}
        renderRow={(line, _index, position) => (
          // The gap below each line is the item's padding, so measuring the item measures it too.
          <div {...position} role="listitem" style={{ paddingBottom: 'var(--mantine-spacing-xs)' }}>
            <Group
              justify="space-between"
              align="center"
              gap="xs"
              wrap="wrap"
              data-testid={testId}
              data-invoice-id={line.invoiceID}
            >
              <div style={{ flex: '1 1 16rem', minWidth: 0 }}>
                <InvoiceLink text={line.text} url={line.url} />
              </div>
              <AssignSelect
                label={`Assign ${line.text}`}
                value={choiceOf(line.invoiceID)}
                options={options}
                optionOf={optionOf}
                onChange={(choice) => onChoose(line.invoiceID, choice)}
              />
            </Group>
          </div>
        )}
      />
    </div>
  );
}

/** Below a list while its later pages load: how many lines it shows so far. */
export const moreInvoicesText = (shown: number) =>
  `Loading more invoices… ${shown.toLocaleString('en-AU')} shown so far`;
export const MORE_INVOICES_FAILED = 'More invoices could not be loaded';

/** A list's later pages on their way, or why one did not come. */
function LaterPages({ list }: { list: InvoiceList }) {
  return (
    <>
      {list.loading && (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm" c="dimmed">
            {moreInvoicesText(list.lines.length)}
          </Text>
        </Group>
      )}
      {list.error && (
        <Alert color="red" role="alert" title={MORE_INVOICES_FAILED}>
          {list.error}
        </Alert>
      )}
    </>
  );
}

/** The accounting page (spec section 2) for the page data `page`. */
export function AccountingPageView({ page }: { page: AccountingPage }) {
  const [refresh] = useRefreshAccountingMutation();
  const [assign] = useAssignInvoicesMutation();
  // The choices made on this page since it last came from the server (cleared when an answer replaces it).
  const [choices, setChoices] = useState<Record<string, string>>({});

  // Each list's first page is the page's, the rest comes after it.
  const unassigned = useInvoiceList('unassigned', page.invoices, page.invoicesNext);
  const ignored = useInvoiceList('ignored', page.ignored, page.ignoredNext);

  const initial = useMemo(() => {
    const start: Record<string, string> = {};
    for (const line of unassigned.lines) start[line.invoiceID] = initialChoice(line, false);
    for (const line of ignored.lines) start[line.invoiceID] = initialChoice(line, true);
    return start;
  }, [unassigned.lines, ignored.lines]);
  const choiceOf = (invoiceId: string) => choices[invoiceId] ?? initial[invoiceId] ?? UNSET;
  const onChoose = (invoiceId: string, choice: string) =>
    setChoices((current) => ({ ...current, [invoiceId]: choice }));

  const refreshing = useTimedAction(async () => {
    await refresh().unwrap();
    setChoices({});
  });
  const assigning = useTimedAction(async () => {
    await assign({ items: assignmentItems({ ...initial, ...choices }, initial) }).unwrap();
    setChoices({});
  });

  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Button onClick={() => void refreshing.run()} disabled={refreshing.state === 'busy'}>
          {textOf(refreshing.state, {
            idle: 'Refresh Accounting',
            busy: 'Refreshing...',
            done: 'Refreshed!',
          })}
        </Button>
        {page.syncedAt && (
          <Text size="sm" c="dimmed" data-testid="accounting-synced-at">
            Last read from the accounting system {new Date(page.syncedAt).toLocaleString('en-AU')}
          </Text>
        )}
      </Group>
      {refreshing.error && (
        <Alert
          color="red"
          role="alert"
          title="Unable to refresh accounting"
          withCloseButton
          onClose={refreshing.dismissError}
        >
          {refreshing.error}
        </Alert>
      )}

      <Section title="Unassigned Repeating Invoices">
        {page.repeatingInvoices.length === 0 ? (
          <None />
        ) : (
          <List spacing={4} data-testid="unassigned-repeating-invoices">
            {page.repeatingInvoices.map((r) => (
              <List.Item key={r.id}>
                <InvoiceLink text={r.text} url={r.url} />
              </List.Item>
            ))}
          </List>
        )}
      </Section>

      <Section title="Unassigned Invoices">
        {page.invoices.length === 0 ? (
          <None />
        ) : (
          <InvoiceLines
            lines={unassigned.lines}
            stocks={page.stocks}
            choiceOf={choiceOf}
            onChoose={onChoose}
            testId="unassigned-invoice"
          />
        )}
        <LaterPages list={unassigned} />
        <Group>
          <Button onClick={() => void assigning.run()} disabled={assigning.state === 'busy'}>
            {textOf(assigning.state, { idle: 'Assign Invoices', busy: 'Wait...', done: 'Assigned!' })}
          </Button>
        </Group>
        {assigning.error && (
          <Alert
            color="red"
            role="alert"
            title="Unable to assign the invoices"
            withCloseButton
            onClose={assigning.dismissError}
          >
            {assigning.error}
          </Alert>
        )}
      </Section>

      <Section title="Ignored Invoices">
        {page.ignored.length === 0 ? (
          <None />
        ) : (
          <InvoiceLines
            lines={ignored.lines}
            stocks={page.stocks}
            choiceOf={choiceOf}
            onChoose={onChoose}
            testId="ignored-invoice"
          />
        )}
        <LaterPages list={ignored} />
      </Section>
    </Stack>
  );
}
