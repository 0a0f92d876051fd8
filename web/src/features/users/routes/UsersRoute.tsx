import { Alert, Anchor, Button, Center, Group, Loader, Text, TextInput } from '@mantine/core';
import { NEW_USER_ID, type UserListItemDto } from '@irp/proto';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Page } from '@/components/Page';
import { blockSpacer, VirtualRows } from '@/components/VirtualRows';
import { errorMessageOf } from '@/lib/apiError';
import { textFilter } from '@/lib/textFilter';
import { whenIdle } from '@/lib/ui/whenIdle';
import { useUsersQuery } from '../api/usersApi';

/** A user's line before it is measured. */
const ROW_HEIGHT = 28;
const userKey = (user: { id: string }) => user.id;
const byUsername = textFilter<UserListItemDto>((user) => [user.username]);

/** /users (spec section 2, Users): 'Add New User' and a link per user showing the username. */
export function UsersRoute() {
  const { data, error, isLoading } = useUsersQuery();
  const [text, setText] = useState('');
  const shown = useMemo(() => byUsername(data ?? [], text), [data, text]);
  // The filter's search texts, made while the page is idle after the list arrived (not on the first key).
  useEffect(() => whenIdle(() => byUsername.prepare(data ?? [])), [data]);

  return (
    <Page title="Users">
      <Group justify="space-between" align="end" wrap="wrap">
        <TextInput
          label="Filter"
          placeholder="Username"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          w={{ base: '100%', xs: 320 }}
        />
        <Button component={Link} to={`/users/${NEW_USER_ID}`}>
          Add New User
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" title="Unable to load the users">
          {errorMessageOf(error)}
        </Alert>
      )}
      {isLoading && (
        <Center py="xl">
          <Loader aria-label="Loading users" />
        </Center>
      )}
      {data && (
        <>
          <Text size="sm" c="dimmed" data-testid="users-showing">
            Showing {shown.length} of {data.length}
          </Text>
          <ul aria-label="Users" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            <VirtualRows
              rows={shown}
              rowKey={userKey}
              estimateSize={ROW_HEIGHT}
              kind="listitem"
              spacer={blockSpacer}
              renderRow={(user, _index, position) => (
                <li {...position} style={{ paddingBottom: 4 }}>
                  <Anchor component={Link} to={`/users/${user.id}`} style={{ overflowWrap: 'anywhere' }}>
                    {user.username}
                  </Anchor>
                </li>
              )}
            />
          </ul>
        </>
      )}
    </Page>
  );
}
