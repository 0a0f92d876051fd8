import type { SortColumn } from './filters';

export interface DashboardColumn {
  key: SortColumn;
  label: string;
  /** Relative width (grid `fr`). */
  share: number;
}

/** Spec section 2: the admin's columns. */
export const ADMIN_COLUMNS: readonly DashboardColumn[] = [
  { key: 'ticker', label: 'Ticker', share: 0.9 },
  { key: 'date', label: 'Created', share: 1 },
  { key: 'apiKey', label: 'API Key', share: 1.5 },
  { key: 'poll', label: 'Poll', share: 0.5 },
  { key: 'emailMarketing', label: 'Email marketing', share: 0.9 },
  { key: 'invoice', label: 'Invoice', share: 1.8 },
  { key: 'repeat', label: 'Repeat', share: 1.1 },
  { key: 'expired', label: 'Expired', share: 0.7 },
  { key: 'website', label: 'Website', share: 1.7 },
];

/** Report-runners see only the summary columns (their rows carry nothing else). */
export const REPORT_RUNNER_COLUMNS: readonly DashboardColumn[] = [
  { key: 'ticker', label: 'Ticker', share: 1 },
  { key: 'date', label: 'Created', share: 1 },
  { key: 'website', label: 'Website', share: 3 },
];
