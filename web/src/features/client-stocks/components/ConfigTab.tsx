import { Button, Group, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { STANDARD_AUTO_SEND_FILTER } from '@irp/proto';
import { useMemo } from 'react';
import { useTabSave, useTabState } from '@/components/save/SaveFlow';
import { AUTO_SEND_FILTER_HINT } from '@/lib/autoSendFilter';
import type { ClientStockTabProps } from '@/lib/tabs/stockPageTabs';
import { useSaveClientStockMutation } from '../api/clientStockApi';
import {
  CONFIG_LABELS,
  CONFIG_SWITCHES,
  changedConfigFields,
  clientSaveBody,
  configValuesOf,
  editableConfigFields,
  type ClientConfigField,
  type ClientConfigValues,
  type ConfigTextField,
} from '../model/configForm';

interface ConfigTabProps {
  values: ClientConfigValues;
  /** The fields this user may change; the others are not shown. */
  fields: readonly ClientConfigField[];
  onChange: (patch: Partial<ClientConfigValues>) => void;
}

/** The client's Config tab: the stock's client-editable settings (saved by the header's Save). */
export function ConfigTab({ values, fields, onChange }: ConfigTabProps) {
  const has = (field: ClientConfigField) => fields.includes(field);
  const text = (field: ConfigTextField, props: { placeholder?: string; description?: string } = {}) =>
    has(field) && (
      <TextInput
        label={CONFIG_LABELS[field]}
        value={values[field]}
        onChange={(event) => onChange({ [field]: event.currentTarget.value })}
        {...props}
      />
    );
  const emailsHint = 'Separate addresses with commas or semicolons';

  return (
    <Stack gap="md" maw={760}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {text('companyName')}
        {text('websiteUrl', { placeholder: 'www.example.com' })}
      </SimpleGrid>
      {text('confirmationEmail', { description: emailsHint })}
      {text('contactEmail', { description: emailsHint })}
      {text('announcementNotificationEmails', { description: emailsHint })}

      <Title order={4}>Announcements</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {CONFIG_SWITCHES.filter(has).map((field) => (
          <Switch
            key={field}
            label={CONFIG_LABELS[field]}
            checked={values[field]}
            onChange={(event) => onChange({ [field]: event.currentTarget.checked })}
          />
        ))}
      </SimpleGrid>
      {has('autoSendFilter') && (
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label={CONFIG_LABELS.autoSendFilter}
            description={AUTO_SEND_FILTER_HINT}
            value={values.autoSendFilter}
            onChange={(event) => onChange({ autoSendFilter: event.currentTarget.value })}
            style={{ flex: '1 1 16rem' }}
          />
          <Button variant="default" onClick={() => onChange({ autoSendFilter: STANDARD_AUTO_SEND_FILTER })}>
            Standard filter (Appendix 3B/3Y)
          </Button>
        </Group>
      )}

      {has('moderatorEmail') && (
        <>
          <Title order={4}>Comments</Title>
          {text('moderatorEmail', { description: emailsHint })}
          {text('companyLogoUrl', { placeholder: 'https://' })}
          <Textarea
            label={CONFIG_LABELS.announcementCommentTemplate}
            rows={10}
            value={values.announcementCommentTemplate}
            onChange={(event) => onChange({ announcementCommentTemplate: event.currentTarget.value })}
          />
        </>
      )}
      <Text size="xs" c="dimmed">
        Changes are saved with the Save button at the top of the page.
      </Text>
    </Stack>
  );
}

/**
 * The Config tab as the client stock page registers it: the form, kept while other tabs show, saved by
 * the page's Save button with only the fields this user may change.
 */
export function ClientConfigTab({ stock }: ClientStockTabProps) {
  const fields = useMemo(() => editableConfigFields(stock.roles), [stock.roles]);
  const saved = useMemo(() => configValuesOf(stock), [stock]);
  const [values, setValues] = useTabState<ClientConfigValues>('config', () => saved);
  const [saveStock] = useSaveClientStockMutation();

  useTabSave({
    dirty: changedConfigFields(saved, values, fields).length > 0,
    async save() {
      const result = await saveStock(clientSaveBody(stock.combinedTicker, values, fields)).unwrap();
      if (!result.success || !result.stock) throw new Error(result.errorMessage ?? 'The stock was not saved');
      setValues(configValuesOf(result.stock));
    },
  });

  return (
    <ConfigTab
      values={values}
      fields={fields}
      onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
    />
  );
}
