import { Alert, Button, Center, Group, Loader, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ClientStockDto } from '@irp/proto';
import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { StockSaveButton, useSaveCycle } from '@/components/StockSaveButton';
import { errorMessageOf, errorStatusOf } from '@/lib/apiError';
import { useClientStockQuery, useSaveClientStockMutation } from '../api/clientStockApi';
import { ConfigTab } from '../components/ConfigTab';
import { PlaceholderTab } from '../components/PlaceholderTab';
import {
  changedConfigFields,
  clientSaveBody,
  configValuesOf,
  editableConfigFields,
  type ClientConfigValues,
} from '../model/configForm';
import { activeTabFor, allowedTabs, tabKeyOf } from '../model/tabs';

export const NO_ACCESS_MESSAGE = 'You do not have access to this stock';
export const NOTHING_TO_SAVE = 'Nothing to Save';

interface Message {
  title: string;
  text: string;
}

function ClientStockScreen({ stock }: { stock: ClientStockDto }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const tabs = allowedTabs(stock.roles);
  const active = activeTabFor(stock.roles, searchParams.get('tab'));
  const fields = useMemo(() => editableConfigFields(stock.roles), [stock.roles]);
  const saved = useMemo(() => configValuesOf(stock), [stock]);
  const [values, setValues] = useState<ClientConfigValues>(saved);
  const [message, setMessage] = useState<Message | null>(null);
  const [saveStock] = useSaveClientStockMutation();
  const cycle = useSaveCycle();

  const selectTab = (value: string | null) => {
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

  async function save() {
    if (cycle.state === 'saving') return;
    // Only the Config tab has something to save on this page so far.
    const changed = active === 'config' ? changedConfigFields(saved, values, fields) : [];
    if (changed.length === 0) {
      setMessage({ title: 'Save', text: NOTHING_TO_SAVE });
      return;
    }
    await cycle.run(async () => {
      try {
        const result = await saveStock(clientSaveBody(stock.combinedTicker, values, fields)).unwrap();
        if (!result.success || !result.stock)
          throw new Error(result.errorMessage ?? 'The stock was not saved');
        setValues(configValuesOf(result.stock));
        return true;
      } catch (error) {
        setMessage({ title: 'Unable to save', text: errorMessageOf(error) });
        return false;
      }
    });
  }

  return (
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
        {active && active !== 'comments' && (
          <StockSaveButton state={cycle.state} onClick={() => void save()} miw={96} />
        )}
      </Group>

      {tabs.length === 0 || !active ? (
        <Text c="dimmed">Your roles on this stock include none of its settings.</Text>
      ) : (
        <Tabs value={active} onChange={selectTab} keepMounted={false}>
          <Tabs.List>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.key} value={tab.key}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab.key} value={tab.key} pt="md">
              {tab.key === 'config' ? (
                <ConfigTab
                  values={values}
                  fields={fields}
                  onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
                />
              ) : (
                <PlaceholderTab tab={tab.key} />
              )}
            </Tabs.Panel>
          ))}
        </Tabs>
      )}

      <Modal opened={message !== null} onClose={() => setMessage(null)} title={message?.title} centered>
        <Stack gap="md">
          <Text>{message?.text}</Text>
          <Group justify="flex-end">
            <Button onClick={() => setMessage(null)}>OK</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
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
