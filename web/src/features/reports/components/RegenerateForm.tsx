import { Alert, Button, Group, Progress, Stack, Text, TextInput } from '@mantine/core';
import type { ReportView } from '@irp/proto';
import { useState, type FormEvent } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import { useRegenerateReportMutation } from '../api/reportsApi';

interface RegenerateFormProps {
  report: ReportView;
  /** The new report, generated over the chosen dates (a new guid). */
  onGenerated: (report: ReportView) => void;
}

/**
 * The public page's date-range form (spec section 2; shown only when the report allows search): Generate
 * reads 'Generating...' while the server computes the new report, which over a long range takes a while,
 * so a progress bar says it is working; a refusal shows its errorMessage in an error box (spec section 8).
 */
export function RegenerateForm({ report, onGenerated }: RegenerateFormProps) {
  const [startDate, setStartDate] = useState(report.startDate);
  const [endDate, setEndDate] = useState(report.endDate);
  const [errorMessage, setErrorMessage] = useState<string | null>(null);
  const [regenerate, { isLoading: generating }] = useRegenerateReportMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (generating) return;
    setErrorMessage(null);
    try {
      const answer = await regenerate({ Guid: report.guid, StartDate: startDate, EndDate: endDate }).unwrap();
      if (answer.report) onGenerated(answer.report);
      else setErrorMessage(answer.errorMessage ?? 'The report could not be generated');
    } catch (error) {
      setErrorMessage(errorMessageOf(error));
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Report dates">
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            type="date"
            label="Start date"
            value={startDate}
            readOnly={generating}
            onChange={(event) => setStartDate(event.currentTarget.value)}
          />
          <TextInput
            type="date"
            label="End date"
            value={endDate}
            readOnly={generating}
            onChange={(event) => setEndDate(event.currentTarget.value)}
          />
          <Button type="submit" disabled={generating}>
            {generating ? 'Generating...' : 'Generate'}
          </Button>
        </Group>
        {generating && (
          <Stack gap={4} role="status" data-testid="generating">
            <Text size="sm">Generating the report...</Text>
            <Progress value={100} striped animated aria-label="Generating the report" />
          </Stack>
        )}
        {errorMessage && (
          <Alert color="red" role="alert" title="The report could not be generated">
            <Text component="p" m={0} size="sm">
              {errorMessage}
            </Text>
          </Alert>
        )}
      </Stack>
    </form>
  );
}
