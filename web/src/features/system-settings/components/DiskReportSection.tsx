import { Alert, Anchor, Button, Group, Switch } from '@mantine/core';
import { formatDateTime, type DiskReportItem } from '@irp/proto';
import { useState } from 'react';
import { Section } from '@/components/Section';
import { errorMessageOf } from '@/lib/apiError';
import { safeHttpUrl, websiteHref } from '@/lib/website';
import { useLazyDiskReportQuery } from '../api/systemSettingsApi';
import { formatMegabytes } from '../model/settingsForm';
import { DataTable, type DataColumn } from '@/components/DataTable';

const COLUMNS: DataColumn<DiskReportItem>[] = [
  { label: 'Ticker', render: (row) => row.ticker, nowrap: true },
  { label: 'Disk space', render: (row) => formatMegabytes(row.diskSpace), nowrap: true },
  {
    label: 'Website',
    render: (row) => {
      // Stored as typed: linked only when it makes an http(s) address.
      const href = safeHttpUrl(websiteHref(row.website));
      return href ? (
        <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
          {row.website}
        </Anchor>
      ) : (
        row.website
      );
    },
  },
  { label: 'API key', render: (row) => row.apiKey ?? '' },
  {
    label: 'Last used in report',
    render: (row) => (row.lastUsedInReport ? formatDateTime(row.lastUsedInReport) : 'Never'),
    nowrap: true,
  },
];

/** Disk report: disk space per stock, largest first; without billable stocks unless asked. */
export function DiskReportSection() {
  const [includeBillable, setIncludeBillable] = useState(false);
  const [run, { data, error, isFetching }] = useLazyDiskReportQuery();
  return (
    <Section
      title="Disk report"
      description="Disk space of each stock's stored announcements. Without billable stocks it lists those that do not pay (archived, no API key or subscription expired)."
    >
      <Group gap="md" align="center" wrap="wrap">
        <Switch
          label="Include billable"
          checked={includeBillable}
          onChange={(event) => setIncludeBillable(event.currentTarget.checked)}
        />
        <Button onClick={() => void run(includeBillable)} loading={isFetching}>
          Run Disk Report
        </Button>
      </Group>
      {error && !isFetching && (
        <Alert color="red" role="alert">
          {errorMessageOf(error)}
        </Alert>
      )}
      {data && !error && (
        <DataTable
          label="Disk report"
          columns={COLUMNS}
          rows={data}
          rowKey={(row) => row.ticker}
          empty="No stocks to report."
        />
      )}
    </Section>
  );
}
