import {
  Anchor,
  Button,
  Fieldset,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  EXCHANGE_DIRECTORY,
  INVALID_TICKER_MESSAGE,
  STANDARD_AUTO_SEND_FILTER,
  combinedTickerOf,
  displayTicker,
  isValidTicker,
  normaliseTicker,
  type Stock,
} from '@irp/proto';
import { useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { reloadPage } from '@/api/pageReload';
import { errorMessageOf } from '@/lib/apiError';
import { AUTO_SEND_FILTER_HINT } from '@/lib/autoSendFilter';
import { websiteHref } from '@/lib/website';
import {
  useArchiveStockMutation,
  useChangeTickerMutation,
  useGetExchangesQuery,
  useNewApiKeyMutation,
  type StockActionResponse,
} from '../api/stocksApi';
import { hasIsin, testApiUrl, viewOnExchangeUrl, type StockDraft } from './stockDraft';
import { useConfigForm } from './useConfigForm';

export const NEW_API_KEY_WARNING =
  'This stock already has an API key. Existing applications using it will break once the new key is saved. Generate a new key?';

interface StockConfigTabProps {
  /** The saved stock; null on /create. */
  stock: Stock | null;
}

type TextField = { [K in keyof StockDraft]: StockDraft[K] extends string ? K : never }[keyof StockDraft];
type SwitchField = { [K in keyof StockDraft]: StockDraft[K] extends boolean ? K : never }[keyof StockDraft];

/** Fails a ticker change or archive answered 2xx but without success. */
function assertSuccess(result: StockActionResponse): void {
  if (!result.success) throw new Error(result.errorMessage || 'The request failed');
}

/** The Config tab (spec section 2): every stock setting an admin edits; saved by the page's Save. */
export function StockConfigTab({ stock }: StockConfigTabProps) {
  const creating = stock === null;
  const { draft, onChange } = useConfigForm(stock);
  const navigate = useNavigate();
  const { data: exchanges = EXCHANGE_DIRECTORY } = useGetExchangesQuery(undefined, { skip: !creating });
  const [changeTicker, { isLoading: changingTicker }] = useChangeTickerMutation();
  const [archiveStock, { isLoading: archiving }] = useArchiveStockMutation();
  const [newApiKey, { isLoading: generating }] = useNewApiKeyMutation();
  const [newTicker, setNewTicker] = useState<string | null>(null);

  const text = (field: TextField) => ({
    value: draft[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange({ [field]: event.currentTarget.value }),
  });
  const toggle = (field: SwitchField) => ({
    checked: draft[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange({ [field]: event.currentTarget.checked }),
  });

  async function confirmChangeTicker() {
    if (!stock || newTicker === null) return;
    const target = normaliseTicker(newTicker);
    if (target === stock.ticker) {
      setNewTicker(null);
      return;
    }
    if (!isValidTicker(target)) {
      window.alert(INVALID_TICKER_MESSAGE);
      return;
    }
    try {
      const result = await changeTicker({
        exchange: stock.exchange,
        ticker: stock.ticker,
        newTicker: target,
      }).unwrap();
      assertSuccess(result);
      const combinedTicker = result.stock?.combinedTicker ?? combinedTickerOf(target, stock.exchange);
      // The data router updates the history once the navigation settles; reload the new address then.
      await navigate(`/stocks/${combinedTicker}/config`);
      reloadPage();
    } catch (error) {
      window.alert(errorMessageOf(error));
    }
  }

  async function toggleArchived() {
    if (!stock) return;
    const verb = stock.archived ? 'unarchive' : 'archive';
    if (!window.confirm(`Are you sure you want to ${verb} ${displayTicker(stock.ticker, stock.exchange)}?`))
      return;
    try {
      assertSuccess(
        await archiveStock({
          exchange: stock.exchange,
          ticker: stock.ticker,
          archived: !stock.archived,
        }).unwrap(),
      );
      reloadPage();
    } catch (error) {
      window.alert(errorMessageOf(error));
    }
  }

  async function generateApiKey() {
    if (draft.apiKey.trim() && !window.confirm(NEW_API_KEY_WARNING)) return;
    try {
      const { apiKey } = await newApiKey().unwrap();
      onChange({ apiKey });
    } catch (error) {
      window.alert(errorMessageOf(error));
    }
  }

  const exchangeUrl = viewOnExchangeUrl(draft.ticker, draft.exchange);
  const website = websiteHref(draft.websiteUrl);

  return (
    <Stack gap="lg" data-testid="stock-config">
      <Fieldset legend="Stock">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Stack gap={4}>
            <TextInput
              label="Ticker"
              value={draft.ticker}
              readOnly={!creating}
              variant={creating ? 'default' : 'filled'}
              // Tickers are stored upper-cased (spec section 2), so the input shows them that way.
              onChange={(event) => onChange({ ticker: event.currentTarget.value.toUpperCase() })}
            />
            {exchangeUrl && (
              <Anchor href={exchangeUrl} target="_blank" rel="noopener noreferrer" size="sm">
                View on Exchange
              </Anchor>
            )}
          </Stack>
          {creating ? (
            <NativeSelect
              label="Exchange"
              value={draft.exchange}
              data={exchanges.map((e) => ({ value: e.code, label: `${e.code} - ${e.name}` }))}
              onChange={(event) => onChange({ exchange: event.currentTarget.value })}
            />
          ) : (
            <TextInput label="Exchange" value={draft.exchange} readOnly variant="filled" />
          )}
          {hasIsin(draft.exchange) && <TextInput label="ISIN" {...text('isin')} />}
          <TextInput label="Company name" {...text('companyName')} />
        </SimpleGrid>

        {stock && (
          <Group gap="sm" mt="md" align="flex-end" wrap="wrap">
            {newTicker === null ? (
              <Button variant="default" onClick={() => setNewTicker(stock.ticker)}>
                Change Ticker
              </Button>
            ) : (
              <>
                <TextInput
                  label="New ticker"
                  value={newTicker}
                  onChange={(event) => setNewTicker(event.currentTarget.value.toUpperCase())}
                  w={{ base: '100%', xs: 200 }}
                  data-autofocus
                />
                <Button onClick={() => void confirmChangeTicker()} loading={changingTicker}>
                  Confirm Change Ticker
                </Button>
              </>
            )}
            <Button
              variant="default"
              color={stock.archived ? undefined : 'red'}
              onClick={() => void toggleArchived()}
              loading={archiving}
            >
              {stock.archived ? 'Unarchive' : 'Archive'}
            </Button>
          </Group>
        )}
      </Fieldset>

      <Fieldset legend="Billing and polling">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Stack gap={4}>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput label="API key" {...text('apiKey')} style={{ flex: 1 }} miw={0} />
              <Button variant="default" onClick={() => void generateApiKey()} loading={generating}>
                Generate
              </Button>
            </Group>
            {draft.apiKey.trim() && (
              <Anchor href={testApiUrl(draft.apiKey)} target="_blank" rel="noopener noreferrer" size="sm">
                Test API
              </Anchor>
            )}
          </Stack>
          <TextInput label="Billing date" type="date" {...text('billingDate')} />
          <TextInput label="Accounting reference" {...text('accountingReference')} />
          <TextInput
            label="Poll start year"
            type="number"
            inputMode="numeric"
            {...text('announcementStartYear')}
          />
        </SimpleGrid>
        <Group gap="xl" mt="md">
          <Switch label="Poll" {...toggle('pollAsx')} />
          <Switch label="Subscription Expired" {...toggle('subscriptionExpired')} />
          <Switch label="Disable market data" {...toggle('disableMarketData')} />
        </Group>
      </Fieldset>

      <Fieldset legend="Sending announcements">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Switch
            label="Email price-sensitive announcements"
            {...toggle('sendPriceSensitiveAnnouncements')}
          />
          <Switch
            label="Email non-price-sensitive announcements"
            {...toggle('sendNonPriceSensitiveAnnouncements')}
          />
          <Switch
            label="Send price-sensitive announcements by email marketing"
            {...toggle('autoSendAnnouncementEmail')}
          />
          <Switch
            label="Send non-price-sensitive announcements by email marketing"
            {...toggle('autoSendNonPriceSensitiveAnnouncements')}
          />
        </SimpleGrid>
        <Group gap="sm" mt="md" align="flex-end" wrap="wrap">
          <TextInput
            label="Auto-send filter"
            description={AUTO_SEND_FILTER_HINT}
            {...text('autoSendFilter')}
            style={{ flex: 1 }}
            miw={{ base: '100%', xs: 240 }}
          />
          <Button variant="default" onClick={() => onChange({ autoSendFilter: STANDARD_AUTO_SEND_FILTER })}>
            Standard 3B/3Y filter
          </Button>
        </Group>
      </Fieldset>

      <Fieldset legend="Contacts and website">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Confirmation emails"
            description="Separate addresses with commas or semicolons"
            {...text('confirmationEmail')}
          />
          <TextInput label="Announcement notification emails" {...text('announcementNotificationEmails')} />
          <TextInput label="Contact emails" {...text('contactEmail')} />
          <TextInput label="Moderator emails" {...text('moderatorEmail')} />
          <Stack gap={4}>
            <TextInput label="Website" {...text('websiteUrl')} />
            {website && (
              <Anchor
                href={website}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                data-testid="website-link"
              >
                {website}
              </Anchor>
            )}
          </Stack>
          <TextInput label="Company logo URL" {...text('companyLogoUrl')} />
        </SimpleGrid>
        <Textarea
          label="Announcement comment template"
          rows={10}
          mt="md"
          {...text('announcementCommentTemplate')}
        />
      </Fieldset>
      {creating && (
        <Text size="sm" c="dimmed">
          Save creates the stock.
        </Text>
      )}
    </Stack>
  );
}
