import { Alert, Anchor, Badge, Button, Card, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { optionCardTitle, orderFormPathOf, type ServiceOptionGroup } from '@irp/proto';
import { useState } from 'react';
import { CenteredLoader } from '@/components/CenteredLoader';
import { errorMessageOf } from '@/lib/apiError';
import {
  useArchiveOptionGroupMutation,
  useOptionGroupsQuery,
  useSetDefaultOptionGroupMutation,
} from '../api/serviceOrdersApi';
import { draftOf, newGroupDraft, type OptionGroupDraftValues } from '../model/optionGroupDraft';
import { OptionGroupEditor } from './OptionGroupEditor';

/** One group: its order form's link, its option cards as the form titles them, and its actions. */
function OptionGroupCard({
  group,
  busy,
  onEdit,
  onMakeDefault,
  onArchive,
  onRestore,
}: {
  group: ServiceOptionGroup;
  busy: boolean;
  onEdit: () => void;
  onMakeDefault: () => void;
  onArchive: () => void;
  onRestore: () => void;
}) {
  const path = group.isDefault ? '/new-order' : orderFormPathOf(group.id);
  return (
    <Card withBorder data-testid="option-group">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {group.name}
          </Text>
          <Group gap="xs">
            {group.isDefault && <Badge color="blue">Default</Badge>}
            {group.archived && <Badge color="gray">Archived</Badge>}
          </Group>
        </Group>
        {group.archived ? (
          <Text size="sm" c="dimmed">
            Its order form is no longer offered.
          </Text>
        ) : (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Order form:{' '}
            <Anchor href={path} target="_blank" rel="noreferrer">
              {path}
            </Anchor>
          </Text>
        )}
        <List size="sm">
          {group.options.map((option, i) => (
            <List.Item key={option.id}>
              {optionCardTitle(i + 1, option.price)}: {option.name}
              {option.isDefault ? ' (default)' : ''}
            </List.Item>
          ))}
        </List>
        <Group gap="xs" wrap="wrap">
          {group.archived ? (
            <Button size="xs" variant="default" onClick={onRestore} loading={busy}>
              Restore
            </Button>
          ) : (
            <>
              <Button size="xs" variant="default" onClick={onEdit} disabled={busy}>
                Edit
              </Button>
              {!group.isDefault && (
                <>
                  <Button size="xs" variant="default" onClick={onMakeDefault} loading={busy}>
                    Make default
                  </Button>
                  <Button size="xs" variant="light" color="red" onClick={onArchive} disabled={busy}>
                    Archive
                  </Button>
                </>
              )}
            </>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * The Orders screen's option groups (Admin): what the public order form offers. The default group is
 * what /new-order shows; another group's form is /new-order/{id}, a link staff send a prospective client.
 * Staff create and edit groups, make one the default, and archive one (after a confirmation; its form then
 * says it is no longer offered, orders placed from it keep their option) or restore it.
 */
export function OptionGroupsSection() {
  const { data, isLoading, error } = useOptionGroupsQuery();
  const [setDefault] = useSetDefaultOptionGroupMutation();
  const [archive] = useArchiveOptionGroupMutation();
  const [editing, setEditing] = useState<OptionGroupDraftValues | null>(null);
  const [confirming, setConfirming] = useState<ServiceOptionGroup | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  async function act(group: ServiceOptionGroup, call: () => Promise<unknown>, done: string) {
    setNotice(null);
    setBusyId(group.id);
    try {
      await call();
      setNotice({ ok: true, text: done });
    } catch (err) {
      setNotice({ ok: false, text: errorMessageOf(err) });
    } finally {
      setBusyId(null);
    }
  }

  const groups = data?.groups ?? [];
  return (
    <Stack gap="md" data-testid="option-groups">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>Option groups</Title>
        {!editing && (
          <Button
            onClick={() => {
              setNotice(null);
              setEditing(newGroupDraft());
            }}
          >
            New option group
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        The order form at /new-order shows the default group&apos;s options. Send a prospective client the
        link of another group for other prices.
      </Text>
      {notice && (
        <Alert
          color={notice.ok ? 'green' : 'red'}
          role={notice.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      )}
      {editing && (
        <OptionGroupEditor
          key={editing.id ?? 'new'}
          initial={editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) setNotice({ ok: true, text: `Saved ${saved.name}.` });
          }}
        />
      )}
      {isLoading && <CenteredLoader />}
      {error && <Text c="red">{errorMessageOf(error)}</Text>}
      {!isLoading && !error && groups.length === 0 && (
        <Text c="dimmed">No option groups yet: the order form offers nothing until one is made.</Text>
      )}
      {groups.map((group) => (
        <OptionGroupCard
          key={group.id}
          group={group}
          busy={busyId === group.id}
          onEdit={() => {
            setNotice(null);
            setEditing(draftOf(group));
          }}
          onMakeDefault={() =>
            void act(
              group,
              () => setDefault({ id: group.id }).unwrap(),
              `${group.name} is now the default: /new-order shows its options.`,
            )
          }
          onArchive={() => setConfirming(group)}
          onRestore={() =>
            void act(
              group,
              () => archive({ id: group.id, archived: false }).unwrap(),
              `Restored ${group.name}: its order form is offered again.`,
            )
          }
        />
      ))}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Archive option group"
        centered
      >
        {confirming && (
          <Stack gap="md">
            <Text style={{ overflowWrap: 'anywhere' }}>
              Archive {confirming.name}? Its order form ({orderFormPathOf(confirming.id)}) will say it is no
              longer offered. Orders already submitted keep their option.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirming(null)}>
                Cancel
              </Button>
              <Button
                color="red"
                onClick={() => {
                  const group = confirming;
                  setConfirming(null);
                  void act(
                    group,
                    () => archive({ id: group.id, archived: true }).unwrap(),
                    `Archived ${group.name}: its order form is no longer offered.`,
                  );
                }}
              >
                Archive
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
