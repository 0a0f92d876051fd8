import { Anchor } from '@mantine/core';
import { displayTicker, splitEmailList, type ClientStockDto } from '@irp/proto';
import { Link } from 'react-router-dom';
import { InvoiceStanding } from '@/components/InvoiceStanding';
import { websiteHref } from '@/lib/website';
import { clientInvoiceView } from '../model/invoice';

export function ClientTickerLink({ stock }: { stock: ClientStockDto }) {
  return (
    <Anchor component={Link} to={`/client-stocks/${stock.combinedTicker}`} fw={600}>
      {displayTicker(stock.ticker, stock.exchange)}
    </Anchor>
  );
}

export function WebsiteLink({ url }: { url: string }) {
  const href = websiteHref(url);
  if (!href) return null;
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" style={{ wordBreak: 'break-all' }}>
      {url}
    </Anchor>
  );
}

/** Confirmation emails, one per line (the list is split on commas or semicolons). */
export function EmailLines({ value }: { value: string }) {
  const emails = splitEmailList(value);
  return (
    <>
      {emails.map((email, index) => (
        <div key={`${index}-${email}`} style={{ wordBreak: 'break-all' }}>
          {email}
        </div>
      ))}
    </>
  );
}

export function ClientInvoiceCell({ stock }: { stock: ClientStockDto }) {
  const view = clientInvoiceView(stock);
  if (!view) return null;
  return (
    <div data-testid="client-invoice-cell">
      <div>
        {view.href ? (
          <Anchor href={view.href} target="_blank" rel="noreferrer">
            {view.number}
          </Anchor>
        ) : (
          view.number
        )}{' '}
        {view.total} {view.date}
      </div>
      <div>
        <InvoiceStanding standing={view} separator=" - " />
      </div>
    </div>
  );
}
