import { Alert, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { DELIVERABILITY_DAYS, formatDateTime, type AlertLatency } from '@irp/proto';
import { lazy, Suspense, useId, useMemo } from 'react';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { errorMessageOf } from '@/lib/apiError';
import { useDeliverabilityQuery } from '../api/emailMarketingApi';
import {
  deliverabilityChartOptions,
  deliverabilitySummary,
  latencyText,
  overComplaintLimit,
} from '../model/deliverability';

// Highcharts loads with the panel, never with the app (scripts/test/web-bundle.test.mjs).
const Chart = lazy(() => import('@/components/Chart'));

const ALERT_COLUMNS: readonly DataColumn<AlertLatency>[] = [
  { label: 'Announcement', render: (a) => a.headline },
  { label: 'First mail', render: (a) => formatDateTime(a.firstAcceptedAt), nowrap: true },
  { label: 'Alert latency', render: (a) => latencyText(a.alertLatencyMs), nowrap: true },
];

/**
 * The stock's deliverability (issue 36; staff, and the client with EditMailchimp): its announcement mail per
 * day over the last DELIVERABILITY_DAYS as a chart (accepted, bounced, complaints, unsubscribed, and the
 * complaint rate against the large providers' 0.3%), and the alert latency of its latest announcements.
 */
export function DeliverabilitySection({ stockId }: { stockId: string }) {
  const headingId = useId();
  const { data, error, isLoading } = useDeliverabilityQuery(stockId);
  const options = useMemo(() => (data ? deliverabilityChartOptions(data) : undefined), [data]);
  return (
    <Paper
      component="section"
      withBorder
      p={{ base: 'sm', sm: 'md' }}
      radius="md"
      aria-labelledby={headingId}
    >
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          Deliverability
        </Title>
        {isLoading ? (
          <Center py="md">
            <Loader size="sm" aria-label="Loading deliverability" />
          </Center>
        ) : !data ? (
          <Alert color="red" role="alert">
            {errorMessageOf(error)}
          </Alert>
        ) : (
          <>
            <Text size="sm" data-testid="deliverability-summary">
              {deliverabilitySummary(data, DELIVERABILITY_DAYS)}
            </Text>
            {overComplaintLimit(data) && (
              <Alert color="red" role="alert" title="Complaint rate over 0.3%">
                Gmail, Yahoo and Microsoft reject bulk mail from senders above this rate: check who is
                subscribed and what is sent.
              </Alert>
            )}
            <Suspense
              fallback={
                <Center py="md">
                  <Loader size="sm" aria-label="Loading the chart" />
                </Center>
              }
            >
              {options && <Chart options={options} />}
            </Suspense>
            <Title order={4}>Alert latency</Title>
            <DataTable
              label="Alert latency"
              columns={ALERT_COLUMNS}
              rows={data.alerts}
              rowKey={(a) => a.sendGuid}
              empty="No announcement mailed yet"
              minWidth={480}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
