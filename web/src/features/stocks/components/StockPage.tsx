import { Alert, Center, Loader } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { NotAllowed } from '@/components/NotAllowed';
import { Page } from '@/components/Page';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { errorMessageOf } from '@/lib/apiError';
import { syncPollInterval } from '@/lib/initialPoll';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { stocksApi, useGetStockQuery } from '../api/stocksApi';
import { StockEditor } from './StockEditor';
import { resolveStockTab, visibleTabsFor } from './stockTabs';

/**
 * How often to fetch the stock again: while its initial poll runs (or is about to start), to show the
 * progress and Save once it completes. One answer carries both the run and completedInitialPoll (the
 * gateway composes the latter from the former), so there is nothing else to wait for.
 */
export function stockPollInterval(stock: StaffStock | undefined): number {
  return stock ? syncPollInterval(stock.completedInitialPoll, stock.initialPoll) : 0;
}

interface StockPageProps {
  /** The URL's `ticker:exchange` (a bare ticker means ASX). */
  combinedTicker: string;
  /** The URL's fourth segment, if any. */
  tabSegment: string | undefined;
}

/** /stocks/{ticker:exchange}/{tab}: loads the stock and shows the tab the URL names. */
export function StockPage({ combinedTicker, tabSegment }: StockPageProps) {
  const user = useAppSelector(selectSessionUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const tabs = visibleTabsFor(user);
  const tab = tabs.find((t) => t.key === resolveStockTab(user, tabSegment));
  const [pollingInterval, setPollingInterval] = useState(0);
  const { data: stock, error, isLoading } = useGetStockQuery(combinedTicker, { skip: !tab, pollingInterval });

  useEffect(() => {
    setPollingInterval(stockPollInterval(stock));
  }, [stock]);

  // The page owns its copy of the stock; a tab changes it locally through this (e.g. a resync).
  const patchStock = useCallback(
    (patch: Partial<StaffStock>) =>
      void dispatch(
        stocksApi.util.updateQueryData('getStock', combinedTicker, (draft) => {
          Object.assign(draft, patch);
        }),
      ),
    [dispatch, combinedTicker],
  );

  const showTab = (next: string) => navigate(`/stocks/${combinedTicker}/${next}`, { replace: true });

  // A segment naming no tab the user may see becomes the tab shown instead.
  const key = tab?.key;
  const segmentWrong = key !== undefined && tabSegment !== undefined && tabSegment !== key;
  useEffect(() => {
    if (segmentWrong && key) void navigate(`/stocks/${combinedTicker}/${key}`, { replace: true });
  }, [segmentWrong, key, combinedTicker, navigate]);

  if (!tab) return <NotAllowed />;
  if (isLoading) {
    return (
      <Center mih={200}>
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (!stock) {
    return (
      <Page title={combinedTicker}>
        <Alert color="red" role="alert">
          {errorMessageOf(error)}
        </Alert>
      </Page>
    );
  }
  const Screen = tab.component;
  return (
    <StockEditor key={stock.id} stock={stock} tabs={tabs} tab={tab} onTabChange={(t) => void showTab(t)}>
      <Screen stock={stock} patchStock={patchStock} />
    </StockEditor>
  );
}
