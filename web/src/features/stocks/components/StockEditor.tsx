import { Badge, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { displayTicker, formatDateTime, syncProgressText } from '@irp/proto';
import type { ReactNode } from 'react';
import { SaveButton } from '@/components/save/SaveButton';
import { SaveFlowProvider } from '@/components/save/SaveFlow';
import { TabStrip, TabSuspense } from '@/components/TabStrip';
import { isSyncing } from '@/lib/initialPoll';
import type { StaffStock, StaffStockTab } from '@/lib/tabs/stockPageTabs';
import { StockFieldsSave } from './useConfigForm';

interface StockEditorProps {
  /** The stock as last fetched; null on /create. */
  stock: StaffStock | null;
  /** The tabs the user may see, in order; empty on /create (the Config tab alone). */
  tabs: readonly StaffStockTab[];
  /** The tab shown; undefined on /create. */
  tab?: StaffStockTab;
  onTabChange?: (key: string) => void;
  /** The shown tab's screen. */
  children: ReactNode;
}

function StockTitle({ stock }: { stock: StaffStock | null }) {
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
 * 'Sync in Progress', the tabs, and the shown tab's screen, which saves through the page's Save button
 * (components/save). The page keeps each tab's unsaved edits while another tab shows.
 */
export function StockEditor({ stock, tabs, tab, onTabChange, children }: StockEditorProps) {
  const syncing = stock !== null && isSyncing(stock.completedInitialPoll, stock.initialPoll);
  const showSave = (tab ? tab.saves : true) && !syncing;

  return (
    <SaveFlowProvider>
      {stock && <StockFieldsSave stock={stock} />}
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="sm">
          <StockTitle stock={stock} />
          <Group gap="sm" wrap="wrap">
            {syncing && (
              // The initial poll's progress when the page has it ('Sync in Progress: 2019 of 2026, ...').
              <Badge
                color="orange"
                variant="light"
                size="lg"
                maw="100%"
                h="auto"
                tt="none"
                // The progress text is longer than a badge usually is: wrap it rather than cut it on phones.
                styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
                data-testid="sync-in-progress"
              >
                {syncProgressText(stock.initialPoll ?? null)}
              </Badge>
            )}
            {showSave && <SaveButton />}
          </Group>
        </Group>

        {tab ? (
          <TabStrip tabs={tabs} active={tab.key} onChange={(key) => onTabChange?.(key)}>
            {children}
          </TabStrip>
        ) : (
          <TabSuspense>{children}</TabSuspense>
        )}
      </Stack>
    </SaveFlowProvider>
  );
}
