import { Alert, Center, Loader } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { useUserQuery } from '../api/usersApi';
import { UserEditor } from '../components/UserEditor';
import { isNewUser } from '../model/userForm';

/** /users/{id} (spec section 2): the user editor; 'new' creates a user. */
export function EditUserRoute() {
  const { id = '' } = useParams();
  // currentData: the answer for this id only (`data` would still hold the previous id's user while this
  // one loads, e.g. the empty user just after a new user's save moved here).
  const { currentData: data, error, isFetching } = useUserQuery(id, { refetchOnMountOrArgChange: true });
  return (
    <Page title={isNewUser(id) ? 'Add New User' : 'Edit User'}>
      {error && (
        <Alert color="red" role="alert" title="Unable to load the user">
          {errorMessageOf(error)}
        </Alert>
      )}
      {isFetching && !data && (
        <Center py="xl">
          <Loader aria-label="Loading the user" />
        </Center>
      )}
      {/* A new id (a new user saved, another user opened) starts a new form. */}
      {data && !error && <UserEditor key={id} id={id} user={data} />}
    </Page>
  );
}
