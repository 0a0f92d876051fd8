import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { StockRole } from '@irp/proto';
import { useMemo } from 'react';
import { useAppSelector } from '@/app/hooks';
import { useTabSave, useTabState } from '@/components/save/SaveFlow';
import { errorMessageOf } from '@/lib/apiError';
import { isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import type { ClientStockTabProps, StaffStockTabProps } from '@/lib/tabs/stockPageTabs';
import {
  useEmailMarketingSettingsQuery,
  useSaveEmailMarketingSettingsMutation,
} from '../api/emailMarketingApi';
import {
  formValuesOf,
  saveBodyOf,
  settingsChanged,
  type EmailMarketingFormValues,
} from '../model/emailMarketingForm';
import { EmailMarketingForm } from './EmailMarketingForm';
import { SendActions } from './SendActions';
import { DeliverabilitySection } from './DeliverabilitySection';
import { SubscribersSection } from './SubscribersSection';

interface PanelProps {
  stockId: string;
  /** The stock's product API key: Send Test Email and Send To Subscribers need it. */
  /** Undefined when the user may not see it (no ViewConfig on the stock): the server checks it then. */
  productApiKey: string | null | undefined;
  canTestSend: boolean;
  canSendToSubscribers: boolean;
}

/**
 * The settings form, kept by the page while other tabs show and saved by the page's Save button
 * (components/save: Saving..., 'Saved!', a refusal's errorMessage in the 'Save failed' modal), with the
 * send buttons the user may use.
 */
function SettingsEditor({
  saved,
  stockId,
  productApiKey,
  canTestSend,
  canSendToSubscribers,
}: PanelProps & { saved: EmailMarketingFormValues }) {
  const [values, setValues] = useTabState<EmailMarketingFormValues>('email-marketing', () => saved);
  const [save] = useSaveEmailMarketingSettingsMutation();

  useTabSave({
    dirty: settingsChanged(saved, values),
    async save() {
      const result = await save(saveBodyOf(stockId, values)).unwrap();
      if (!result.success || !result.settings) {
        throw new Error(result.errorMessage || 'The email marketing settings were not saved');
      }
      setValues(formValuesOf(result.settings));
    },
  });

  return (
    <Stack gap="lg">
      <EmailMarketingForm
        stockId={stockId}
        values={values}
        onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
      />
      <SendActions
        stockId={stockId}
        productApiKey={productApiKey}
        values={values}
        canTestSend={canTestSend}
        canSendToSubscribers={canSendToSubscribers}
      />
      <Text size="xs" c="dimmed">
        Settings are saved with the Save button at the top of the page; the send buttons use them as typed.
      </Text>
    </Stack>
  );
}

/** Loads the stock's saved settings (GET /api/emailMarketingSettings/?id), then shows the editor. */
function EmailMarketingPanel(props: PanelProps) {
  const { data, error, isLoading } = useEmailMarketingSettingsQuery(props.stockId);
  const saved = useMemo(() => formValuesOf(data?.settings), [data?.settings]);

  if (isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading email marketing settings" />
      </Center>
    );
  }
  if (!data || !data.success) {
    return (
      <Alert color="red" role="alert">
        {data?.errorMessage || errorMessageOf(error)}
      </Alert>
    );
  }
  return <SettingsEditor saved={saved} {...props} />;
}

/** Staff stock page, Email marketing tab (admins, spec section 2): settings, sends and the subscribers. */
export function EmailMarketingTab({ stock }: StaffStockTabProps) {
  const user = useAppSelector(selectSessionUser);
  return (
    <Stack gap="xl" maw={960}>
      <EmailMarketingPanel
        stockId={stock.id}
        productApiKey={stock.apiKey}
        canTestSend
        canSendToSubscribers={isAdmin(user)}
      />
      <DeliverabilitySection stockId={stock.id} />
      <SubscribersSection combinedTicker={stock.combinedTicker} />
    </Stack>
  );
}

/**
 * Client stock page, email-marketing tab (EditMailchimp on the stock): the same settings and the
 * deliverability panel; Send Test Email only with TestSendAnnouncement on the stock; no Send To Subscribers
 * (admins) and no subscriber list.
 */
export function ClientEmailMarketingTab({ stock }: ClientStockTabProps) {
  return (
    <Stack gap="xl" maw={960}>
      <EmailMarketingPanel
        stockId={stock.id}
        productApiKey={stock.apiKey}
        canTestSend={stock.roles.includes(StockRole.TestSendAnnouncement)}
        canSendToSubscribers={false}
      />
      <DeliverabilitySection stockId={stock.id} />
    </Stack>
  );
}
