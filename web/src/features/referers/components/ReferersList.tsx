import { Anchor, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { displayTicker, formatDateTime, type Referer, type StockReferers } from '@irp/proto';
import { blockSpacer, tableSpacer, VirtualRows } from '@/components/VirtualRows';
import { safeHttpUrl } from '@/lib/website';

function RefererLines({ referers }: { referers: readonly Referer[] }) {
  if (referers.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No referers yet
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      {referers.map((referer) => (
        <div key={referer.url} data-testid="referer">
          {/* Referers are whatever a caller of the widget API sent: only http(s) ones become links. */}
          {safeHttpUrl(referer.url) ? (
            <Anchor
              href={referer.url}
              target="_blank"
              rel="noreferrer"
              size="sm"
              style={{ wordBreak: 'break-all' }}
            >
              {referer.url}
            </Anchor>
          ) : (
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {referer.url}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {referer.count} {referer.count === 1 ? 'hit' : 'hits'} · first {formatDateTime(referer.first)} ·
            last {formatDateTime(referer.last)}
          </Text>
        </div>
      ))}
    </Stack>
  );
}

const hitsText = (hits: number) => `${hits} ${hits === 1 ? 'hit' : 'hits'}`;

/** A row's and a card's height before they are measured (a stock with one referer). */
const ROW_HEIGHT = 62;
const CARD_HEIGHT = 96;
const TABLE_SPACER = tableSpacer(2);
const stockKey = (stock: StockReferers) => stock.combinedTicker;

export function ReferersTable({ stocks }: { stocks: readonly StockReferers[] }) {
  return (
    <Table.ScrollContainer minWidth={600} type="native">
      <Table striped verticalSpacing="xs" aria-label="Referers" aria-rowcount={stocks.length + 1}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th scope="col">Ticker</Table.Th>
            <Table.Th scope="col">Referers</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody data-testid="referers-rows">
          <VirtualRows
            rows={stocks}
            rowKey={stockKey}
            estimateSize={ROW_HEIGHT}
            kind="row"
            spacer={TABLE_SPACER}
            renderRow={(stock, _index, position) => (
              <Table.Tr {...position}>
                <Table.Td style={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                  <Text fw={600} size="sm">
                    {displayTicker(stock.ticker, stock.exchange)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {hitsText(stock.hits)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <RefererLines referers={stock.referers} />
                </Table.Td>
              </Table.Tr>
            )}
          />
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per stock. */
export function ReferersCards({ stocks }: { stocks: readonly StockReferers[] }) {
  return (
    <div role="list" aria-label="Referers" data-testid="referers-rows">
      <VirtualRows
        rows={stocks}
        rowKey={stockKey}
        estimateSize={CARD_HEIGHT}
        kind="listitem"
        spacer={blockSpacer}
        renderRow={(stock, _index, position) => (
          // The gap below each card is the item's padding, so measuring the item measures it too.
          <div {...position} role="listitem" style={{ paddingBottom: 'var(--mantine-spacing-xs)' }}>
            <Paper withBorder p="sm" radius="sm">
              <Group justify="space-between" mb={4}>
                <Text fw={600}>{displayTicker(stock.ticker, stock.exchange)}</Text>
                <Text size="sm" c="dimmed">
                  {hitsText(stock.hits)}
                </Text>
              </Group>
              <RefererLines referers={stock.referers} />
            </Paper>
          </div>
        )}
      />
    </div>
  );
}
