import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { formatAud, formatDateTime, type ServiceOrder } from '@irp/proto';
import { useState } from 'react';
import { Link } from 'react-router-dom';

interface ServiceOrderCardProps {
  order: ServiceOrder;
  busy: boolean;
  onCreate: (order: ServiceOrder, ticker: string, reference: string) => void;
}

/** One order: what the client gave, its editable ticker and reference, and Create Service until created. */
export function ServiceOrderCard({ order, busy, onCreate }: ServiceOrderCardProps) {
  const [ticker, setTicker] = useState(order.ticker);
  const [reference, setReference] = useState(order.reference);
  const field = (label: string, value: string) => (
    <Text size="sm">
      <Text span c="dimmed">
        {label}:
      </Text>{' '}
      {value || '—'}
    </Text>
  );
  return (
    <Card withBorder data-testid="service-order">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text fw={600}>{order.companyName}</Text>
          <Text size="sm" c="dimmed">
            {formatDateTime(order.timestamp)}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4}>
          {field(
            'Option',
            order.option ? `${order.option.name} (${formatAud(order.option.price)} + GST)` : '',
          )}
          {field('Website', order.website)}
          {field(
            'Contact',
            [order.contactName, order.contactPhone, order.contactEmail].filter(Boolean).join(', '),
          )}
          {field('ABN', order.abn)}
          {field('Address', order.address)}
          {field('Authorised By', order.authorisedBy)}
        </SimpleGrid>
        {order.isCreated ? (
          <Group gap="xs">
            <Badge color="green">Created</Badge>
            {order.combinedTicker && (
              <Anchor component={Link} to={`/stocks/${order.combinedTicker}`} size="sm">
                {order.combinedTicker}
              </Anchor>
            )}
            {order.reference && <Text size="sm">Reference: {order.reference}</Text>}
          </Group>
        ) : (
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Ticker"
              value={ticker}
              onChange={(e) => setTicker(e.currentTarget.value.toUpperCase())}
              w={140}
            />
            <TextInput
              label="Reference"
              value={reference}
              onChange={(e) => setReference(e.currentTarget.value)}
              w={200}
            />
            <Button onClick={() => onCreate(order, ticker, reference)} loading={busy}>
              Create Service
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
