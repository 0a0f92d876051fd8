import { Alert, Center, Loader, Text } from '@mantine/core';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { useClientDashboardQuery } from '../api/clientDashboardApi';
import { ClientStockCards, ClientStockTable } from '../components/ClientStockList';
import { showsInvoiceColumn } from '../model/invoice';

/** / for non-staff users (spec section 2): the stocks the user holds roles on. */
export function ClientDashboardRoute() {
  const { data, error, isLoading } = useClientDashboardQuery();
  const small = useSmallScreen();
  const stocks = data?.stocks ?? [];
  const withInvoice = showsInvoiceColumn(stocks);

  return (
    <Page title="Client Dashboard">
      {error && (
        <Alert color="red" role="alert" title="Unable to load your stocks">
          {errorMessageOf(error)}
        </Alert>
      )}
      {isLoading && (
        <Center py="xl">
          <Loader aria-label="Loading stocks" />
        </Center>
      )}
      {data && stocks.length === 0 && <Text c="dimmed">You have no stocks to manage yet.</Text>}
      {stocks.length > 0 &&
        (small ? (
          <ClientStockCards stocks={stocks} withInvoice={withInvoice} />
        ) : (
          <ClientStockTable stocks={stocks} withInvoice={withInvoice} />
        ))}
    </Page>
  );
}
