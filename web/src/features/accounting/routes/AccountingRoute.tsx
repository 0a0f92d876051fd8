import { Alert, Center, Loader } from '@mantine/core';
import { useAppSelector } from '@/app/hooks';
import { NotAllowed } from '@/components/NotAllowed';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { useAccountingPageQuery } from '../api/accountingApi';
import { AccountingPageView } from '../components/AccountingPageView';

function AccountingContent() {
  const { data, error, isLoading } = useAccountingPageQuery();
  if (isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the accounting page" />
      </Center>
    );
  }
  if (!data) {
    return (
      <Alert color="red" role="alert" title="Unable to load the accounting page">
        {errorMessageOf(error)}
      </Alert>
    );
  }
  return <AccountingPageView page={data} />;
}

/** /accounting-page, 'Accounting Integration' (spec section 2, admins): assigning invoices to stocks. */
export function AccountingRoute() {
  const user = useAppSelector(selectSessionUser);
  if (!isAdmin(user)) return <NotAllowed />;
  return (
    <Page title="Accounting Integration">
      <AccountingContent />
    </Page>
  );
}
