import { NativeSelect, SimpleGrid, Stack, TextInput, type TextInputProps } from '@mantine/core';
import {
  FIELD_LABELS,
  isProvider,
  PROVIDER_OPTIONS,
  usesClientId,
  type EmailMarketingFormValues,
  type TextField,
} from '../model/emailMarketingForm';
import { SubscriberCount } from './SubscriberCount';

interface EmailMarketingFormProps {
  stockId: string;
  values: EmailMarketingFormValues;
  onChange: (patch: Partial<EmailMarketingFormValues>) => void;
}

/**
 * The email-marketing settings (spec section 3): provider type, list ID, API key with the list's
 * subscriber count, template ID, reply to, from name, saved segment ID, client ID (second provider type
 * only) and the test addresses. One column on phones, two from Mantine's `sm` up.
 */
export function EmailMarketingForm({ stockId, values, onChange }: EmailMarketingFormProps) {
  const text = (field: TextField, props: TextInputProps = {}) => (
    <TextInput
      label={FIELD_LABELS[field]}
      value={values[field]}
      onChange={(event) => onChange({ [field]: event.currentTarget.value })}
      autoComplete="off"
      {...props}
    />
  );

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        <NativeSelect
          label="Provider type"
          data={PROVIDER_OPTIONS.map((option) => ({ value: option.value, label: option.label }))}
          value={values.provider}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (isProvider(value)) onChange({ provider: value });
          }}
        />
        {text('listId')}
        {text('apiKey', {
          spellCheck: false,
          // The count is the key's description, under the field (and so read with it).
          inputWrapperOrder: ['label', 'input', 'description', 'error'],
          description: <SubscriberCount stockId={stockId} values={values} />,
        })}
        {text('templateId')}
        {text('replyTo', { type: 'email', inputMode: 'email' })}
        {text('fromName')}
        {text('savedSegmentId')}
        {usesClientId(values.provider) && text('clientId')}
      </SimpleGrid>
      {text('testEmailAddresses', {
        description: 'Send Test Email sends to these; separate addresses with commas or semicolons',
      })}
    </Stack>
  );
}
