import { Alert, Button, Checkbox, Group, Input, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { AnnouncementMessages, type Announcement } from '@irp/proto';
import { useId, useState, type ChangeEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { useSaveAnnouncementMutation } from '../api/announcementsApi';
import { formValuesOf, takesPdfUpload, type AnnouncementFormValues } from '../model/announcements';

type TextField = Exclude<keyof AnnouncementFormValues, 'priceSensitive' | 'file'>;

interface AnnouncementFormProps {
  combinedTicker: string;
  exchange: string;
  /** The announcement edited; null adds one. */
  announcement: Announcement | null;
  onDone: () => void;
}

/**
 * The Add/Edit form (spec section 2): headline, date, price sensitive, the PDF (ASX) or URL (others),
 * video URL and description, thumbnail page. The service checks it; its refusal shows as 'Save Failed! …'.
 */
function AnnouncementForm({ combinedTicker, exchange, announcement, onDone }: AnnouncementFormProps) {
  const [values, setValues] = useState<AnnouncementFormValues>(() => formValuesOf(announcement));
  const [failure, setFailure] = useState<string | null>(null);
  const [save, { isLoading }] = useSaveAnnouncementMutation();
  const fileId = useId();
  const upload = takesPdfUpload(exchange);

  const text = (field: TextField) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
    },
  });

  async function submit() {
    setFailure(null);
    try {
      await save({ combinedTicker, values, existing: announcement }).unwrap();
      onDone();
    } catch (error) {
      setFailure(AnnouncementMessages.saveFailed(errorMessageOf(error)));
    }
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="sm">
        <TextInput label="Headline" {...text('headline')} data-autofocus />
        <TextInput label="Date" description="Sydney time, like 22 Mar 2025 8:50 AM" {...text('date')} />
        <Checkbox
          label="Price sensitive"
          checked={values.priceSensitive}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            setValues((current) => ({ ...current, priceSensitive: checked }));
          }}
        />
        {upload ? (
          <Input.Wrapper
            label="PDF"
            labelElement="label"
            id={fileId}
            description={announcement ? 'Leave empty to keep the stored PDF' : undefined}
          >
            {/* A native input: the browser's own file picker, which browser tests can fill. */}
            <input
              id={fileId}
              type="file"
              accept="application/pdf"
              style={{ display: 'block', marginTop: 4, maxWidth: '100%' }}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0] ?? null;
                setValues((current) => ({ ...current, file }));
              }}
            />
          </Input.Wrapper>
        ) : (
          <TextInput label="URL" placeholder="https://" type="url" {...text('remotePath')} />
        )}
        <TextInput label="Video URL" placeholder="https://" {...text('videoUrl')} />
        <Textarea label="Video description" autosize minRows={2} {...text('videoDescription')} />
        <TextInput
          label="Thumbnail page number"
          type="number"
          inputMode="numeric"
          min={1}
          {...text('thumbnailPageNum')}
        />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" loading={isLoading}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface AnnouncementFormModalProps extends Omit<AnnouncementFormProps, 'announcement'> {
  /** What the modal shows: adding, editing one announcement, or closed (null). */
  editing: { announcement: Announcement | null } | null;
}

/** The form in a modal (full screen on phones). */
export function AnnouncementFormModal({ editing, ...props }: AnnouncementFormModalProps) {
  const small = useSmallScreen();
  return (
    <Modal
      opened={editing !== null}
      onClose={props.onDone}
      title={editing?.announcement ? 'Edit Announcement' : 'Add Announcement'}
      fullScreen={small}
      size="lg"
      centered
    >
      {editing && (
        // Keyed so each opening starts from the announcement's saved values.
        <AnnouncementForm
          key={editing.announcement?.sendGuid ?? 'new'}
          announcement={editing.announcement}
          {...props}
        />
      )}
    </Modal>
  );
}
