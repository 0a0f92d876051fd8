import { displayTicker, formatDate, type StockRowDto } from '@irp/proto';
import { useCallback, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { DashboardTick } from '@/components/DashboardTick';
import { InvoiceStanding } from '@/components/InvoiceStanding';
import { websiteHref } from '@/lib/website';
import type { SortColumn } from '../model/filters';
import { invoiceCellView, repeatCellView } from '../model/invoice';
import classes from './StaffDashboard.module.css';

/** Copies the reminder email of the stock's unpaid invoices to the clipboard. */
export type CopyReminder = (combinedTicker: string) => void;

/**
 * In-app links in the rows are plain anchors marked `data-router-link`; one click handler on the list
 * hands them to the router, instead of a router Link (and its hooks) per row.
 */
export function useRouterLinkClicks() {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element).closest?.('a[data-router-link]');
      const href = anchor?.getAttribute('href');
      if (!href) return;
      event.preventDefault();
      void navigate(href);
    },
    [navigate],
  );
}

export function TickerLink({ stock }: { stock: StockRowDto }) {
  return (
    <a
      href={`/stocks/${stock.combinedTicker}`}
      data-router-link=""
      className={`${classes.link} ${classes.ticker}`}
    >
      {displayTicker(stock.ticker, stock.exchange)}
    </a>
  );
}

function WebsiteLink({ url }: { url: string }) {
  const href = websiteHref(url);
  if (!href) return null;
  return (
    <a href={href} target="_blank" rel="noreferrer" className={classes.link}>
      {url}
    </a>
  );
}

interface ReminderProps {
  onCopyReminder: CopyReminder;
  /** This row's reminder is being fetched and copied. */
  copying: boolean;
}

/** The invoice's number, amount, date and standing, and the button copying a reminder email (spec section 2). */
export function InvoiceCell({ stock, onCopyReminder, copying }: { stock: StockRowDto } & ReminderProps) {
  if (!stock.invoice) return null;
  const view = invoiceCellView(stock.invoice);
  return (
    <div data-testid="invoice-cell">
      <div>
        {view.number} · {view.amount} · {view.date}
      </div>
      <div>
        <InvoiceStanding standing={view} />
      </div>
      <button
        type="button"
        className={classes.smallButton}
        disabled={copying}
        onClick={() => onCopyReminder(stock.combinedTicker)}
      >
        {copying ? 'Copying...' : 'Copy reminder email'}
      </button>
    </div>
  );
}

function RepeatCell({ stock }: { stock: StockRowDto }) {
  if (!stock.repeatingInvoice) return null;
  const view = repeatCellView(stock.repeatingInvoice);
  return (
    <div>
      <div>{view.amount}</div>
      {view.nextScheduled &&
        (view.url ? (
          <a href={view.url} target="_blank" rel="noreferrer" className={classes.link}>
            Next {view.nextScheduled}
          </a>
        ) : (
          <div>Next {view.nextScheduled}</div>
        ))}
    </div>
  );
}

/** One cell's content; plain elements and no hooks, so a table of 2,000 rows stays cheap to render. */
export function StockCell({
  column,
  stock,
  onCopyReminder,
  copying,
}: { column: SortColumn; stock: StockRowDto } & ReminderProps) {
  switch (column) {
    case 'ticker':
      return <TickerLink stock={stock} />;
    case 'date':
      return <>{formatDate(stock.created)}</>;
    case 'apiKey':
      return stock.apiKey ? <span className={classes.mono}>{stock.apiKey}</span> : null;
    case 'poll':
      return <DashboardTick value={stock.pollAsx ?? null} />;
    case 'emailMarketing':
      return <DashboardTick value={stock.emailMarketing ?? null} />;
    case 'invoice':
      return <InvoiceCell stock={stock} onCopyReminder={onCopyReminder} copying={copying} />;
    case 'repeat':
      return <RepeatCell stock={stock} />;
    case 'expired':
      return <DashboardTick value={stock.subscriptionExpired ?? null} />;
    case 'website':
      return <WebsiteLink url={stock.websiteUrl} />;
  }
}
