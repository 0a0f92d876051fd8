import { Alert, Button, Card, Loader, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { formatDateTime, type VersionHistory } from '@irp/proto';
import { useState, type ReactNode } from 'react';
import { errorMessageOf } from '@/lib/apiError';
import type { StaffStockTabProps } from '@/lib/tabs/stockPageTabs';
import {
  useGetNotesQuery,
  useGetStockReferersQuery,
  useGetVersionHistoryQuery,
  useSaveNoteMutation,
} from '../api/stocksApi';

interface StockNotesTabProps {
  combinedTicker: string;
}

/** Loading, failure or the content of one section of the tab. */
function Loaded({ error, loading, children }: { error: unknown; loading: boolean; children: ReactNode }) {
  if (loading) return <Loader size="sm" aria-label="Loading" />;
  if (error) {
    return (
      <Alert color="red" role="alert">
        {errorMessageOf(error)}
      </Alert>
    );
  }
  return children;
}

const none = (
  <Text span c="dimmed" fs="italic">
    none
  </Text>
);

function AddNote({ combinedTicker }: StockNotesTabProps) {
  const [details, setDetails] = useState('');
  const [saveNote, { isLoading }] = useSaveNoteMutation();
  const [failure, setFailure] = useState<string | null>(null);

  async function add() {
    setFailure(null);
    try {
      await saveNote({ ticker: combinedTicker, details }).unwrap();
      setDetails('');
    } catch (error) {
      setFailure(errorMessageOf(error));
    }
  }

  return (
    <Stack gap="xs">
      <Textarea
        label="New note"
        autosize
        minRows={3}
        value={details}
        onChange={(event) => setDetails(event.currentTarget.value)}
      />
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Button onClick={() => void add()} loading={isLoading} disabled={!details.trim()} w="fit-content">
        Add Note
      </Button>
    </Stack>
  );
}

function NotesList({ combinedTicker }: StockNotesTabProps) {
  const { data: notes = [], error, isLoading } = useGetNotesQuery(combinedTicker);
  return (
    <Loaded error={error} loading={isLoading}>
      {notes.length === 0 ? (
        <Text c="dimmed">No notes yet.</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Notes">
          {notes.map((note) => (
            <Card key={note.id} withBorder padding="sm" component="li">
              <Text size="sm" c="dimmed">
                {formatDateTime(note.date)} · {note.user}
              </Text>
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{note.details}</Text>
            </Card>
          ))}
        </Stack>
      )}
    </Loaded>
  );
}

function Referrers({ combinedTicker }: StockNotesTabProps) {
  const { data: referers = [], error, isLoading } = useGetStockReferersQuery(combinedTicker);
  return (
    <Loaded error={error} loading={isLoading}>
      <Table.ScrollContainer minWidth={560}>
        <Table striped aria-label="Referrers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Referrer</Table.Th>
              <Table.Th>Count</Table.Th>
              <Table.Th>First</Table.Th>
              <Table.Th>Last</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {referers.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text c="dimmed" size="sm">
                    No referrers yet.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {referers.map((referer) => (
              <Table.Tr key={referer.url}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{referer.url}</Table.Td>
                <Table.Td>{referer.count}</Table.Td>
                <Table.Td>{formatDateTime(referer.first)}</Table.Td>
                <Table.Td>{formatDateTime(referer.last)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Loaded>
  );
}

function Version({ version }: { version: VersionHistory }) {
  return (
    <Card withBorder padding="sm" component="li" data-testid="stock-version">
      <Text size="sm" fw={500} mb="xs">
        {formatDateTime(version.changedOn)} · {version.changedBy}
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table withTableBorder aria-label={`Version ${version.versionId}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Old value</Table.Th>
              <Table.Th>New value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {version.changes.map((change) => (
              <Table.Tr key={change.fieldName}>
                <Table.Td>{change.fieldName}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{change.originalValue ?? none}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{change.newValue ?? none}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function VersionHistoryList({ combinedTicker }: StockNotesTabProps) {
  const { data: versions = [], error, isLoading } = useGetVersionHistoryQuery(combinedTicker);
  return (
    <Loaded error={error} loading={isLoading}>
      {versions.length === 0 ? (
        <Text c="dimmed">No versions recorded.</Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Version history">
          {versions.map((version) => (
            <Version key={version.versionId} version={version} />
          ))}
        </Stack>
      )}
    </Loaded>
  );
}

/** The Notes tab (spec section 2): add a note, the notes, the widget's referrers, the version history. */
export function StockNotesTab({ combinedTicker }: StockNotesTabProps) {
  return (
    <Stack gap="xl">
      <Stack gap="sm">
        <Title order={3}>Notes</Title>
        <AddNote combinedTicker={combinedTicker} />
        <NotesList combinedTicker={combinedTicker} />
      </Stack>
      <Stack gap="sm">
        <Title order={3}>Referrers</Title>
        <Referrers combinedTicker={combinedTicker} />
      </Stack>
      <Stack gap="sm">
        <Title order={3}>Version History</Title>
        <VersionHistoryList combinedTicker={combinedTicker} />
      </Stack>
    </Stack>
  );
}

/** The Notes tab as the stock page registers it (features/stocks/tabs.ts). */
export function StockNotesPanel({ stock }: StaffStockTabProps) {
  return <StockNotesTab combinedTicker={stock.combinedTicker} />;
}
