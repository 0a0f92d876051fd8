import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { formatDateTime, type FileCleanup } from '@irp/proto';
import { Section } from '@/components/Section';
import { errorMessageOf } from '@/lib/apiError';
import { useLazyFileCleanupQuery } from '../api/systemSettingsApi';
import { formatBytes } from '../model/settingsForm';
import { DataTable, type DataColumn } from '@/components/DataTable';

type Missing = FileCleanup['missingOnDisk'][number];
type Duplicate = FileCleanup['duplicates'][number];
type OnDisk = FileCleanup['onDiskButNotInDatabase'][number];

const MISSING: DataColumn<Missing>[] = [
  { label: 'Ticker', render: (row) => row.combinedTicker, nowrap: true },
  { label: 'Date', render: (row) => formatDateTime(row.date), nowrap: true },
  { label: 'Headline', render: (row) => row.headline },
  { label: 'Local path', render: (row) => row.localPath },
];

const DUPLICATES: DataColumn<Duplicate>[] = [
  {
    label: 'SHA-256',
    render: (row) => (
      <Text span ff="monospace" size="xs" title={row.sha256}>
        {row.sha256.slice(0, 12)}…
      </Text>
    ),
  },
  { label: 'Size', render: (row) => formatBytes(row.size), nowrap: true },
  {
    label: 'Files',
    render: (row) => (
      <Stack gap={2}>
        {row.files.map((file) => (
          <span key={`${file.directory}/${file.filename}`}>
            {file.directory}/{file.filename}
          </span>
        ))}
      </Stack>
    ),
  },
];

const ON_DISK: DataColumn<OnDisk>[] = [
  { label: 'Directory', render: (row) => row.directory },
  { label: 'Filename', render: (row) => row.filename },
  { label: 'Size', render: (row) => formatBytes(row.size), nowrap: true },
];

/** File cleanup (a report; it changes nothing): stored PDFs missing, duplicated, or not in the database. */
export function FileCleanupSection() {
  const [run, { data, error, isFetching }] = useLazyFileCleanupQuery();
  return (
    <Section
      title="File cleanup"
      description="Compares the stored announcement PDFs with the database. It only reports; nothing is changed."
    >
      <Button onClick={() => void run()} loading={isFetching} w="fit-content">
        Run File Cleanup
      </Button>
      {error && !isFetching && (
        <Alert color="red" role="alert">
          {errorMessageOf(error)}
        </Alert>
      )}
      {data && !error && (
        <Stack gap="md" data-testid="file-cleanup-result">
          <Title order={4}>Missing on disk ({data.missingOnDisk.length})</Title>
          <DataTable
            label="Missing on disk"
            columns={MISSING}
            rows={data.missingOnDisk}
            rowKey={(row) => row.sendGuid}
          />
          <Title order={4}>Duplicates ({data.duplicates.length})</Title>
          <DataTable
            label="Duplicates"
            columns={DUPLICATES}
            rows={data.duplicates}
            rowKey={(row) => row.sha256}
          />
          <Title order={4}>On disk but not in database ({data.onDiskButNotInDatabase.length})</Title>
          <DataTable
            label="On disk but not in database"
            columns={ON_DISK}
            rows={data.onDiskButNotInDatabase}
            rowKey={(row) => `${row.directory}/${row.filename}`}
          />
        </Stack>
      )}
    </Section>
  );
}
