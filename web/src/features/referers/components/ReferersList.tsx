import { Anchor, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { displayTicker, formatDateTime, type Referer, type StockReferers } from '@irp/proto';
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

export function ReferersTable({ stocks }: { stocks: readonly StockReferers[] }) {
  return (
    <Table.ScrollContainer minWidth={600} type="native">
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Ticker</Table.Th>
            <Table.Th scope="col">Referers</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody data-testid="referers-rows">
          {stocks.map((stock) => (
            <Table.Tr key={stock.combinedTicker}>
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
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per stock. */
export function ReferersCards({ stocks }: { stocks: readonly StockReferers[] }) {
  return (
    <Stack gap="xs" data-testid="referers-rows">
      {stocks.map((stock) => (
        <Paper key={stock.combinedTicker} withBorder p="sm" radius="sm">
          <Group justify="space-between" mb={4}>
            <Text fw={600}>{displayTicker(stock.ticker, stock.exchange)}</Text>
            <Text size="sm" c="dimmed">
              {hitsText(stock.hits)}
            </Text>
          </Group>
          <RefererLines referers={stock.referers} />
        </Paper>
      ))}
    </Stack>
  );
}
