import { Button, Group, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { STANDARD_AUTO_SEND_FILTER } from '@irp/proto';
import {
  CONFIG_LABELS,
  CONFIG_SWITCHES,
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
            description="A pattern matched against announcement headlines"
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
