import { Group, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { SystemSettings } from '@irp/proto';
import { useId, useMemo, useState, type ChangeEvent } from 'react';
import { SaveButton } from '@/components/save/SaveButton';
import { useTabSave } from '@/components/save/SaveFlow';
import { useSaveSystemSettingsMutation } from '../api/systemSettingsApi';
import {
  ANNOUNCEMENT_SERVICES,
  announcementServiceHint,
  isAnnouncementService,
  LIMIT_LABELS,
  settingsBody,
  settingsChanged,
  settingsFormValues,
  settingsProblem,
  type SettingsFormValues,
} from '../model/settingsForm';

type TextField = Exclude<keyof SettingsFormValues, 'announcementService' | 'useNightmare'>;

/**
 * The settings (spec section 3: announcement service, error email, hourly and daily auto-send limits,
 * disable poll until, browser-automation mode), saved with the stock pages' Save flow: Saving..., 'Saved!'
 * for 3 seconds, a refusal's errorMessage in the 'Save failed' modal. Rendered inside a SaveFlowProvider.
 */
export function SettingsForm({ settings }: { settings: SystemSettings }) {
  const saved = useMemo(() => settingsFormValues(settings), [settings]);
  const [values, setValues] = useState<SettingsFormValues>(saved);
  const [save] = useSaveSystemSettingsMutation();
  const automationHintId = useId();

  useTabSave({
    dirty: settingsChanged(saved, values),
    validate: () => settingsProblem(values),
    async save() {
      const result = await save(settingsBody(values)).unwrap();
      setValues(settingsFormValues(result.settings));
    },
  });

  const text = (field: TextField) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
    },
  });

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NativeSelect
          label="Announcement service"
          description={`Where announcements are polled from. ${announcementServiceHint(values.announcementService)}`}
          data={ANNOUNCEMENT_SERVICES.map((service) => ({ value: service.value, label: service.label }))}
          value={values.announcementService}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (isAnnouncementService(value))
              setValues((current) => ({ ...current, announcementService: value }));
          }}
        />
        <TextInput
          label="Error email"
          type="email"
          description="Polling and sending problems go here"
          {...text('errorEmail')}
        />
        <TextInput
          label={LIMIT_LABELS.hourlyAutoSendLimit}
          type="number"
          inputMode="numeric"
          min={0}
          {...text('hourlyAutoSendLimit')}
        />
        <TextInput
          label={LIMIT_LABELS.dailyAutoSendLimit}
          type="number"
          inputMode="numeric"
          min={0}
          {...text('dailyAutoSendLimit')}
        />
        <TextInput
          label="Disable poll until"
          description="Sydney time, like 22 Mar 2025 8:50 AM; empty to poll as usual"
          {...text('disablePollUntil')}
        />
      </SimpleGrid>
      <div>
        <Switch
          label="Browser-automation mode"
          aria-describedby={automationHintId}
          checked={values.useNightmare}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setValues((current) => ({ ...current, useNightmare: checked }));
          }}
        />
        {/* Beside the switch, not its description: Mantine puts a description inside the label, so it
            would become part of the switch's name. */}
        <Text id={automationHintId} size="xs" c="dimmed" mt={4}>
          Resolves document links that need a browser with headless Chromium
        </Text>
      </div>
      <Group>
        <SaveButton miw={96} />
      </Group>
    </Stack>
  );
}
