import { Notification, Stack, Text } from '@mantine/core';
import type { ServiceOrder } from '@irp/proto';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CenteredLoader } from '@/components/CenteredLoader';
import { errorMessageOf } from '@/lib/apiError';
import { useCreateStockFromServiceOrderMutation, useServiceOrdersQuery } from '../api/serviceOrdersApi';
import { ServiceOrderCard } from './ServiceOrderCard';

/**
 * The staff Orders list (spec section 2, Service Orders): each order with its ticker and reference to edit
 * and Create Service; a created stock opens at the url the server returns, an error shows as a notification.
 */
export function ServiceOrderList() {
  const { data, isLoading, error } = useServiceOrdersQuery();
  const [createStock] = useCreateStockFromServiceOrderMutation();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const navigate = useNavigate();

  async function create(order: ServiceOrder, ticker: string, reference: string) {
    setNotice(null);
    setBusyId(order.id);
    try {
      const { url } = await createStock({ serviceOrderId: order.id, ticker, reference }).unwrap();
      await navigate(url);
    } catch (err) {
      setNotice(errorMessageOf(err));
    } finally {
      setBusyId(null);
    }
  }

  if (isLoading) return <CenteredLoader />;
  if (error) return <Text c="red">{errorMessageOf(error)}</Text>;
  const orders = data?.serviceOrders ?? [];
  return (
    <Stack gap="md">
      {notice && (
        <Notification
          color="red"
          title="Unable to create the stock"
          onClose={() => setNotice(null)}
          role="alert"
        >
          {notice}
        </Notification>
      )}
      {orders.length === 0 && <Text c="dimmed">No service orders yet.</Text>}
      {orders.map((order) => (
        <ServiceOrderCard key={order.id} order={order} busy={busyId === order.id} onCreate={create} />
      ))}
    </Stack>
  );
}
