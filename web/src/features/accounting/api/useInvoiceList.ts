import { useMemo } from 'react';
import { useFollowingPages } from '@/api/useFollowingPages';
import type { AccountingInvoiceList, AccountingPage } from './accountingApi';
import { accountingApi } from './accountingApi';

type Line = AccountingPage['invoices'][number];

/** One of the accounting page's invoice lists as far as it is loaded. */
export interface InvoiceList {
  /** The page's first lines, then each later page's, oldest first. */
  lines: readonly Line[];
  /** A later page is on its way. */
  loading: boolean;
  /** Why a later page did not come (the lines before it stay). */
  error: string | null;
}

/**
 * The accounting page's `list` (its unassigned or ignored invoices): the page's `first` lines at once, the
 * later pages after `next` as they come (issue 35: 20,000 unassigned invoices no longer wait for each other).
 */
export function useInvoiceList(
  list: AccountingInvoiceList,
  first: readonly Line[],
  next: string | null,
): InvoiceList {
  const { pages, loading, error } = useFollowingPages(
    accountingApi.endpoints.accountingInvoices,
    (after) => ({ list, after }),
    list,
    next,
  );
  const lines = useMemo(
    () => (pages.length ? [...first, ...pages.flatMap((p) => p.invoices)] : first),
    [first, pages],
  );
  return { lines, loading, error };
}
