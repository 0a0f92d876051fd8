import { List, Loader, Stack, Text } from '@mantine/core';
import { errorMessageOf } from '@/lib/apiError';
import { formatPricePlusGst } from '@/lib/money';
import { useServiceOrder, type StockServiceOrder } from '../api/serviceOrder';

/** The service order the stock was created from: what was ordered, by whom, for whom; 'None' without one. */
export function ServiceOrderSummary({ combinedTicker }: { combinedTicker: string }) {
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
