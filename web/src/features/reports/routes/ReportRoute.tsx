import { Alert, Box, Center, Loader, Stack, Text } from '@mantine/core';
import { formatDate, type ReportView } from '@irp/proto';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { reportsApi, useReportQuery } from '../api/reportsApi';
import { RegenerateForm } from '../components/RegenerateForm';
import { ReportDocument } from '../components/ReportDocument';
import classes from '../components/report/ReportPage.module.css';

/** The page's title: the company and its ticker (the period shows under it). */
const titleOf = (report: ReportView): string =>
  report.companyName ? `${report.companyName} (${report.ticker})` : report.ticker;

/**
 * The report shown, from the path's guid until the date-range form generates another: that one is shown from
 * the mutation's answer (put in the report cache under its guid) and the address becomes /report/{new guid}
 * with history.replaceState, which the router does not see, so the page is neither remounted nor refetched.
 */
function ReportScreen({ pathGuid }: { pathGuid: string }) {
  const [guid, setGuid] = useState(pathGuid);
  const dispatch = useAppDispatch();
  // currentData: a report generated over other dates never shows the previous one's figures as its own.
  const { currentData: report, error } = useReportQuery(guid, { skip: !guid });

  function showGenerated(generated: ReportView) {
    dispatch(
      reportsApi.util.upsertQueryEntries([{ endpointName: 'report', arg: generated.guid, value: generated }]),
    );
    // The router's state stays as it was (its history index included), so Back still works as before.
    window.history.replaceState(window.history.state, '', `/report/${encodeURIComponent(generated.guid)}`);
    setGuid(generated.guid);
  }

  if (!report) {
    return (
      <Page title="Report">
        {error ? (
          <Alert color="red" role="alert" title="Unable to show the report">
            <Text component="p" m={0} size="sm">
              {errorMessageOf(error)}
            </Text>
          </Alert>
        ) : (
          <Center py="xl">
            <Loader aria-label="Loading the report" />
          </Center>
        )}
      </Page>
    );
  }
  return (
    <Page title={titleOf(report)}>
      <Text c="dimmed" mt={-8} data-testid="report-period-title">
        {formatDate(report.startDate)} to {formatDate(report.endDate)}
      </Text>
      {report.allowSearch && (
        <Box className={classes.screenOnly}>
          {/* Keyed by guid: the form starts from the dates of the report it shows. */}
          <RegenerateForm key={report.guid} report={report} onGenerated={showGenerated} />
        </Box>
      )}
      <ReportDocument report={report} />
    </Page>
  );
}

/** /report/{guid} (spec section 2, public; no header): a generated trading-activity report. */
export function ReportRoute() {
  const { guid = '' } = useParams();
  return (
    <Stack className={classes.page}>
      {/* Keyed by the path's guid: following a link to another report starts afresh. */}
      <ReportScreen key={guid} pathGuid={guid} />
    </Stack>
  );
}
