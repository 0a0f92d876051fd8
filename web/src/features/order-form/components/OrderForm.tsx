import {
  Alert,
  Autocomplete,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Group,
  List,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ADDRESS_SUGGESTIONS_PAUSED_MESSAGE,
  AUTO_SEND_CHOICES,
  type AutoSendChoice,
  ORDER_CANCELLATION_POLICY,
  ORDER_FORM_TERMS,
  MIN_ADDRESS_QUERY,
  ORDER_FORM_TEXTS,
  optionCardTitle,
} from '@irp/proto';
import { useEffect, useMemo, useState } from 'react';
import { errorMessageOf, errorStatusOf } from '@/lib/apiError';
import { randomUuid } from '@/lib/randomUuid';
import {
  useAddressSuggestionsQuery,
  useOrderFormTokenQuery,
  useServiceOptionsQuery,
  useSubmitOrderMutation,
} from '../api/orderFormApi';
import {
  defaultOptionId,
  EMPTY_EMAIL_MARKETING,
  EMPTY_ORDER_FORM,
  type EmailMarketingService,
  type EmailMarketingValues,
  orderBody,
  type OrderFormValues,
  requiredMessages,
} from '../model/orderForm';

const AUTO_SEND_LABELS: Record<AutoSendChoice, string> = {
  all: 'Send all announcements automatically',
  price_sensitive_only: 'Send price-sensitive announcements automatically; others when we choose',
  manual: 'We send each announcement ourselves',
};

type Status = 'editing' | 'submitting' | 'submitted';

/**
 * The billing address: suggestions from the address service while it answers, else a plain field. The
 * suggestions of one address typed share a session token (the address service bills a session's queries
 * together, Places API (New)'s session_token: a version 4 UUID, 36 URL-safe characters); choosing a
 * suggestion ends the session, and the next address typed starts another.
 */
function AddressField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [q] = useDebouncedValue(value.trim(), 250);
  // Once suggestions are off (none configured, or their budget spent: the server's note says so), they
  // stay off for this form: a plain field, and no more lookups.
  const [unavailable, setUnavailable] = useState<{ note?: string } | null>(null);
  const [sessionToken, setSessionToken] = useState(randomUuid);
  const { data, error } = useAddressSuggestionsQuery(
    { q, sessionToken },
    { skip: unavailable !== null || q.length < MIN_ADDRESS_QUERY },
  );
  useEffect(() => {
    if (data && !data.available) setUnavailable({ note: data.message });
  }, [data]);
  useEffect(() => {
    // This address's lookups refused (429): the same plain field, rather than suggestions that never come.
    if (errorStatusOf(error) === 429) setUnavailable({ note: ADDRESS_SUGGESTIONS_PAUSED_MESSAGE });
  }, [error]);
  const suggestions = unavailable ? [] : (data?.suggestions.map((s) => s.text) ?? []);
  if (unavailable)
    return (
      <TextInput
        label="Billing Address"
        description={unavailable.note}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    );
  return (
    <Autocomplete
      label="Billing Address"
      value={value}
      onChange={onChange}
      data={[...new Set(suggestions)]}
      filter={({ options }) => options}
      onOptionSubmit={() => setSessionToken(randomUuid())}
      data-testid="address-autocomplete"
    />
  );
}

/**
 * The public order form (spec section 2, Order form): notes and terms, company and billing details, the
 * option cards of the group `groupId`, optional email-marketing settings, the auto-send choice and who
 * authorised it. Nothing is sent while a required field is missing; once sent, every field is locked.
 */
export function OrderForm({ groupId }: { groupId?: string }) {
  const { data, isLoading, error: optionsError } = useServiceOptionsQuery(groupId);
  const options = useMemo(() => data?.options ?? [], [data]);
  // The form's render-time token: the gateway refuses an order sent sooner than a person fills it in.
  const { data: formToken, refetch: refetchFormToken } = useOrderFormTokenQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [submitOrder] = useSubmitOrderMutation();
  const [values, setValues] = useState<OrderFormValues>(EMPTY_ORDER_FORM);
  const [optionId, setOptionId] = useState<string | null>(null);
  const [choice, setChoice] = useState<AutoSendChoice | null>(null);
  const [useEmailMarketing, setUseEmailMarketing] = useState(false);
  const [emailMarketing, setEmailMarketing] = useState<EmailMarketingValues>(EMPTY_EMAIL_MARKETING);
  const [messages, setMessages] = useState<string[]>([]);
  const [status, setStatus] = useState<Status>('editing');

  useEffect(() => {
    if (optionId === null && options.length) setOptionId(defaultOptionId(options));
  }, [options, optionId]);

  const locked = status !== 'editing';
  const text = (field: keyof OrderFormValues, label: string, extra: { type?: string } = {}) => (
    <TextInput
      label={label}
      type={extra.type}
      value={values[field]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [field]: value }));
      }}
    />
  );
  const emailText = (field: Exclude<keyof EmailMarketingValues, 'service'>, label: string) => (
    <TextInput
      label={label}
      value={emailMarketing[field]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setEmailMarketing((v) => ({ ...v, [field]: value }));
      }}
    />
  );

  async function submit() {
    const missing = requiredMessages(values);
    setMessages(missing);
    if (missing.length) return;
    setStatus('submitting');
    try {
      await submitOrder({
        ...orderBody(values, optionId, choice, useEmailMarketing ? emailMarketing : null),
        formToken: formToken?.token ?? '',
      }).unwrap();
      setStatus('submitted');
    } catch (error) {
      setMessages(errorMessageOf(error).split('; '));
      setStatus('editing');
      // A token refused (too old, say) is never taken later: the next submit carries a new one.
      void refetchFormToken();
    }
  }

  // The link names a group that does not exist or is no longer offered (archived): say so (the server's
  // message says which) rather than offer a form without its options.
  if (errorStatusOf(optionsError) === 404)
    return (
      <Alert color="red" role="alert" title="Order form not available" maw={900}>
        {errorMessageOf(optionsError)}
      </Alert>
    );

  return (
    <Stack gap="lg" maw={900}>
      <Stack gap="xs">
        <Title order={3}>General notes</Title>
        <Text>
          Complete this form to order the investor-relations data service for your company. We provision your
          service after receiving the order and email you the API key and the implementation details.
        </Text>
        <List size="sm" data-testid="order-terms">
          {ORDER_FORM_TERMS.map((term) => (
            <List.Item key={term}>{term}</List.Item>
          ))}
        </List>
        <Title order={4}>Cancellation policy</Title>
        <List size="sm">
          {ORDER_CANCELLATION_POLICY.map((term) => (
            <List.Item key={term}>{term}</List.Item>
          ))}
        </List>
      </Stack>

      <Fieldset disabled={locked} variant="unstyled" p={0}>
        <Stack gap="lg">
          <Stack gap="sm">
            <Title order={3}>Company details</Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {text('companyName', 'Company Name')}
              {text('ticker', 'Ticker/ASX Code')}
              {text('website', 'Website')}
              {text('listingDate', 'Listing Date (IPO only)')}
              {text('abn', 'ABN')}
            </SimpleGrid>
          </Stack>

          <Stack gap="sm">
            <Title order={3}>Billing contact</Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {text('contactName', 'Contact Name')}
              {text('contactPhone', 'Contact Phone', { type: 'tel' })}
              {text('contactEmail', 'Contact Email', { type: 'email' })}
            </SimpleGrid>
            <AddressField
              value={values.address}
              onChange={(address) => setValues((v) => ({ ...v, address }))}
            />
          </Stack>

          <Stack gap="sm">
            <Title order={3}>Service</Title>
            {isLoading && <Text c="dimmed">Loading the options...</Text>}
            {optionsError && (
              <Alert color="red" role="alert" title="Unable to load the options">
                {errorMessageOf(optionsError)}
              </Alert>
            )}
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {options.map((option, i) => (
                <Card key={option.id} withBorder data-testid="option-card">
                  <Checkbox
                    label={optionCardTitle(i + 1, option.price)}
                    checked={optionId === option.id}
                    onChange={() => setOptionId(option.id)}
                    fw={600}
                  />
                  <Text size="sm" mt="xs">
                    {option.name}
                  </Text>
                  <List size="sm" mt="xs">
                    {option.lineItems.map((item) => (
                      <List.Item key={item}>{item}</List.Item>
                    ))}
                  </List>
                </Card>
              ))}
            </SimpleGrid>
          </Stack>

          <Stack gap="sm">
            <Title order={3}>Announcement emails</Title>
            {text('confirmationEmail', 'Confirmation Emails')}
            <Radio.Group
              label="Sending announcements"
              value={choice}
              onChange={(value) => setChoice(value as AutoSendChoice)}
            >
              <Stack gap="xs" mt="xs">
                {AUTO_SEND_CHOICES.map((c) => (
                  <Radio key={c} value={c} label={AUTO_SEND_LABELS[c]} />
                ))}
              </Stack>
            </Radio.Group>
            <Checkbox
              label="Send announcements through our email-marketing service (optional)"
              checked={useEmailMarketing}
              onChange={(e) => setUseEmailMarketing(e.currentTarget.checked)}
            />
            {useEmailMarketing && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label="Email-marketing service"
                  allowDeselect={false}
                  data={[
                    { value: 'mailchimp', label: 'Mailchimp-type' },
                    { value: 'campaign-monitor', label: 'Campaign-Monitor-type' },
                  ]}
                  value={emailMarketing.service}
                  onChange={(service) =>
                    setEmailMarketing((v) => ({
                      ...v,
                      service: (service ?? 'mailchimp') as EmailMarketingService,
                    }))
                  }
                />
                {emailText('listId', 'List ID')}
                {emailText('apiKey', 'API Key')}
                {emailText('templateId', 'Template ID')}
                {emailText('replyTo', 'Reply To')}
                {emailText('fromName', 'From Name')}
                {emailMarketing.service === 'campaign-monitor' && emailText('clientId', 'Client ID')}
              </SimpleGrid>
            )}
          </Stack>

          {text('authorisedBy', 'Authorised By')}
          {/* A honeypot (proto's OrderFormSchema `fax`): off-screen, out of the tab order and hidden from
              screen readers, so people leave it empty; the server drops an order a bot filled it in. */}
          <div
            aria-hidden="true"
            style={{ position: 'absolute', left: '-10000px', width: 1, overflow: 'hidden' }}
          >
            <label>
              Fax
              <input
                name="fax"
                tabIndex={-1}
                autoComplete="off"
                value={values.fax}
                onChange={(e) => {
                  const fax = e.currentTarget.value;
                  setValues((v) => ({ ...v, fax }));
                }}
              />
            </label>
          </div>
        </Stack>
      </Fieldset>

      {messages.length > 0 && (
        <Alert color="red" title="Please complete the form" data-testid="order-form-messages">
          <List size="sm">
            {messages.map((m) => (
              <List.Item key={m}>{m}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      <Group>
        <Button onClick={() => void submit()} disabled={locked}>
          {status === 'editing'
            ? ORDER_FORM_TEXTS.submit
            : status === 'submitting'
              ? ORDER_FORM_TEXTS.submitting
              : ORDER_FORM_TEXTS.submitted}
        </Button>
      </Group>

      {status === 'submitted' && (
        <Alert color="green" title={ORDER_FORM_TEXTS.thanks} data-testid="order-thanks">
          {ORDER_FORM_TEXTS.provisioning}
        </Alert>
      )}
    </Stack>
  );
}
