import { Alert, Center, Loader } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { NotAllowed } from '@/components/NotAllowed';
import { Page } from '@/components/Page';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { errorMessageOf } from '@/lib/apiError';
import { SYNC_PROGRESS_POLL_MS } from '@/lib/initialPoll';
import type { StaffStock } from '@/lib/tabs/stockPageTabs';
import { stocksApi, useGetStockQuery } from '../api/stocksApi';
import { StockEditor } from './StockEditor';
import { resolveStockTab, visibleTabsFor } from './stockTabs';

/** While the initial poll is incomplete, look again this often so Save appears once it completes. */
export const SYNC_POLL_MS = 15_000;

/** How often to fetch the stock again: quickly while a run reports progress, slowly until it completes. */
export function stockPollInterval(stock: StaffStock | undefined): number {
  if (!stock) return 0;
  if (stock.initialPoll?.status === 'running') return SYNC_PROGRESS_POLL_MS;
  if (stock.completedInitialPoll) return 0;
  // A run just completed: the stocks service flips completedInitialPoll a moment later.
  return stock.initialPoll?.status === 'completed' ? SYNC_PROGRESS_POLL_MS : SYNC_POLL_MS;
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
