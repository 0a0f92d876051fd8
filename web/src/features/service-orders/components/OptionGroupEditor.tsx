import {
  Alert,
  Button,
  Card,
  Fieldset,
  Group,
  List,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { OPTION_GROUP_LIMITS, type ServiceOptionGroup } from '@irp/proto';
import { useState } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useSaveOptionGroupMutation } from '../api/serviceOrdersApi';
import {
  draftProblems,
  emptyOption,
  type OptionDraftValues,
  type OptionGroupDraftValues,
  saveBodyOf,
  withDefault,
  withoutOption,
} from '../model/optionGroupDraft';

interface OptionGroupEditorProps {
  initial: OptionGroupDraftValues;
  onDone: (saved: ServiceOptionGroup | null) => void;
}

/**
 * Creates or edits an option group: its name and options (name, price in whole AUD excluding GST, the line
 * items the order form's card and the Invoices tab list, one per line) and which option the form
 * preselects. The rules' messages show before anything is sent; the server's, if it refuses.
 */
export function OptionGroupEditor({ initial, onDone }: OptionGroupEditorProps) {
  const [draft, setDraft] = useState<OptionGroupDraftValues>(initial);
  const [messages, setMessages] = useState<string[]>([]);
  const [save, { isLoading: saving }] = useSaveOptionGroupMutation();

  const setOption = (i: number, change: Partial<OptionDraftValues>) =>
    setDraft((d) => ({ ...d, options: d.options.map((o, k) => (k === i ? { ...o, ...change } : o)) }));

  async function submit() {
    const problems = draftProblems(draft);
    setMessages(problems);
    if (problems.length) return;
    try {
      const { group } = await save(saveBodyOf(draft)).unwrap();
      onDone(group);
    } catch (error) {
      setMessages(errorMessageOf(error).split('; '));
    }
  }

  return (
    <Card withBorder data-testid="option-group-editor">
      <Stack gap="md">
        <Title order={4}>{draft.id ? `Edit ${initial.name}` : 'New option group'}</Title>
        <TextInput
          label="Group name"
          description="Staff see it; the order form shows the options"
          value={draft.name}
          onChange={(e) => {
            const name = e.currentTarget.value;
            setDraft((d) => ({ ...d, name }));
          }}
          maxLength={OPTION_GROUP_LIMITS.name}
          disabled={saving}
        />
        <Radio.Group
          label="Default option (preselected on the order form)"
          value={String(draft.options.findIndex((o) => o.isDefault))}
          onChange={(value) => setDraft((d) => withDefault(d, Number(value)))}
        >
          <Stack gap="sm" mt="xs">
            {draft.options.map((option, i) => (
              // Options have no stable key before they are saved: their place is their identity here.
              <Fieldset key={i} legend={`Option ${i + 1}`} disabled={saving} data-testid="option-editor">
                <Stack gap="xs">
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    <TextInput
                      label="Name"
                      value={option.name}
                      onChange={(e) => setOption(i, { name: e.currentTarget.value })}
                      maxLength={OPTION_GROUP_LIMITS.optionName}
                    />
                    <NumberInput
                      label="Price (AUD + GST, annual)"
                      value={option.price}
                      onChange={(price) => setOption(i, { price })}
                      min={0}
                      max={OPTION_GROUP_LIMITS.price}
                      allowDecimal={false}
                      allowNegative={false}
                      thousandSeparator=","
                      prefix="$"
                    />
                  </SimpleGrid>
                  <Textarea
                    label="Line items (one per line)"
                    value={option.lineItems}
                    onChange={(e) => setOption(i, { lineItems: e.currentTarget.value })}
                    autosize
                    minRows={3}
                  />
                  <Group justify="space-between" wrap="wrap">
                    <Radio value={String(i)} label="Default option" />
                    {draft.options.length > 1 && (
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        onClick={() => setDraft((d) => withoutOption(d, i))}
                      >
                        Remove option {i + 1}
                      </Button>
                    )}
                  </Group>
                </Stack>
              </Fieldset>
            ))}
          </Stack>
        </Radio.Group>
        {draft.options.length < OPTION_GROUP_LIMITS.options && (
          <Group>
            <Button
              variant="default"
              onClick={() =>
                setDraft((d) => ({ ...d, options: [...d.options, emptyOption(d.options.length === 0)] }))
              }
              disabled={saving}
            >
              Add option
            </Button>
          </Group>
        )}
        {messages.length > 0 && (
          <Alert color="red" title="Please correct the group" data-testid="option-group-messages">
            <List size="sm">
              {messages.map((m) => (
                <List.Item key={m}>{m}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Group justify="flex-end" wrap="wrap">
          <Button variant="default" onClick={() => onDone(null)} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={saving}>
            Save group
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
