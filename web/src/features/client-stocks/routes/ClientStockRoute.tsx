import { Alert, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ClientStockDto } from '@irp/proto';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { Page } from '@/components/Page';
import { SaveButton } from '@/components/save/SaveButton';
import { SaveFlowProvider } from '@/components/save/SaveFlow';
import { TabStrip } from '@/components/TabStrip';
import { errorMessageOf, errorStatusOf } from '@/lib/apiError';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { useClientStockQuery } from '../api/clientStockApi';
import { activeTabFor, allowedTabs, tabKeyOf } from '../model/tabs';

export const NO_ACCESS_MESSAGE = 'You do not have access to this stock';

/**
 * The page around one stock: ticker, the Save button (it saves the active tab, through
 * components/save), and the tabs features registered that the user's roles on the stock allow.
 */
function ClientStockScreen({ stock }: { stock: ClientStockDto }) {
  const user = useAppSelector(selectSessionUser);
  const [searchParams, setSearchParams] = useSearchParams();
  const tabs = allowedTabs(stock.roles, user);
  const activeKey = activeTabFor(stock.roles, searchParams.get('tab'), user);
  const active = tabs.find((tab) => tab.key === activeKey);
  const Screen = active?.component;

  const selectTab = (value: string) => {
    const key = tabKeyOf(value);
    if (!key) return;
    setSearchParams(
      (params) => {
        params.set('tab', key);
        return params;
      },
      { replace: true },
    );
  };

  return (
    <SaveFlowProvider>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Title order={3} data-testid="route-param-combinedTicker">
              {stock.combinedTicker}
            </Title>
            {stock.companyName && (
              <Text c="dimmed" size="sm" truncate>
                {stock.companyName}
              </Text>
            )}
          </div>
          {active?.saves && <SaveButton miw={96} />}
        </Group>

        {!active || !Screen ? (
          <Text c="dimmed">Your roles on this stock include none of its settings.</Text>
        ) : (
          <TabStrip tabs={tabs} active={active.key} onChange={selectTab}>
            <Screen stock={stock} />
          </TabStrip>
        )}
      </Stack>
    </SaveFlowProvider>
  );
}

/** /client-stocks/{combinedTicker} (spec section 2): a client's settings for one of their stocks. */
export function ClientStockRoute() {
  const { combinedTicker = '' } = useParams();
  // currentData: after moving to another stock, never show the previous stock while the next one loads.
  const { currentData: stock, error } = useClientStockQuery(combinedTicker, { skip: !combinedTicker });
  const status = errorStatusOf(error);

  if (stock && !error) {
    return (
      <Page title="Client Stock">
        <ClientStockScreen key={stock.combinedTicker} stock={stock} />
      </Page>
    );
  }
  return (
    <Page title="Client Stock">
      <Title order={3} data-testid="route-param-combinedTicker">
        {combinedTicker}
      </Title>
      {error ? (
        <Alert color="red" role="alert">
          {status === 403
            ? NO_ACCESS_MESSAGE
            : status === 404
              ? `Stock ${combinedTicker} not found`
              : errorMessageOf(error)}
        </Alert>
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading stock" />
        </Center>
      )}
    </Page>
  );
}
