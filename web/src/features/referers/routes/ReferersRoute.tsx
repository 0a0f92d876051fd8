import { Alert, Center, Loader, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Page } from '@/components/Page';
import { errorMessageOf } from '@/lib/apiError';
import { useSmallScreen } from '@/lib/ui/useSmallScreen';
import { whenIdle } from '@/lib/ui/whenIdle';
import { useAllReferersQuery } from '../api/referersApi';
import { ReferersCards, ReferersTable } from '../components/ReferersList';
import { filterReferers } from '../model/filterReferers';

/** /referers (spec section 2): which websites use each stock's widget API key. */
export function ReferersRoute() {
  const { data, error, isLoading } = useAllReferersQuery();
  const small = useSmallScreen();
  const [text, setText] = useState('');
  const shown = useMemo(() => filterReferers(data ?? [], text), [data, text]);
  // The filter's search texts, made while the page is idle after the list arrived (not on the first key).
  useEffect(() => whenIdle(() => filterReferers.prepare(data ?? [])), [data]);

  return (
    <Page title="Referers">
      <TextInput
        label="Filter"
        placeholder="Ticker or website"
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        maw={420}
      />
      {error && (
        <Alert color="red" role="alert" title="Unable to load the referers">
          {errorMessageOf(error)}
        </Alert>
      )}
      {isLoading && (
        <Center py="xl">
          <Loader aria-label="Loading referers" />
        </Center>
      )}
      {data && (
        <>
          <Text size="sm" data-testid="referers-showing">
            Showing {shown.length} of {data.length}
          </Text>
          {small ? <ReferersCards stocks={shown} /> : <ReferersTable stocks={shown} />}
        </>
      )}
    </Page>
  );
}
