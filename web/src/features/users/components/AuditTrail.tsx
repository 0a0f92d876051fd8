import { Stack, Text, Title } from '@mantine/core';
import { formatDateTime, type UserAuditEntryDto } from '@irp/proto';
import { DataTable } from '@/components/DataTable';
import { auditChanges, type TickerOf } from '../model/userForm';

/** The user's changes, newest first (docs/api/users.md, Audit trail): only an Admin's answer carries them. */
export function AuditTrail({
  entries,
  tickerOf,
}: {
  entries: readonly UserAuditEntryDto[];
  tickerOf: TickerOf;
}) {
  return (
    <Stack gap="xs">
      <Title order={3}>History</Title>
      <DataTable
        label="History"
        columns={[
          { label: 'When', nowrap: true, render: (entry) => formatDateTime(entry.at) },
          { label: 'By', render: (entry) => entry.actorUsername },
          {
            label: 'Changes',
            render: (entry) => (
              <Stack gap={0}>
                {auditChanges(entry, tickerOf).map((line) => (
                  <Text key={line} size="sm">
                    {line}
                  </Text>
                ))}
              </Stack>
            ),
          },
        ]}
        rows={entries}
        rowKey={(entry, index) => `${entry.at}-${index}`}
        empty="No changes recorded"
      />
    </Stack>
  );
}
