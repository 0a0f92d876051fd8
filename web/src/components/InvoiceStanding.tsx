import type { InvoiceStandingView } from '@/lib/invoiceStanding';

const OVERDUE_STYLE = { color: 'var(--mantine-color-red-7)', fontWeight: 600 } as const;

/**
 * An invoice's 'Paid' or 'Unpaid {n} days overdue', the days red and classed 'overdue' past 90 days; every
 * screen's invoice cell shows it. The client dashboard puts ' - ' between the two (spec section 2: 'Unpaid - ').
 * Plain elements: the staff dashboard renders thousands of these.
 */
export function InvoiceStanding({
  standing,
  separator = ' ',
}: {
  standing: InvoiceStandingView;
  separator?: ' ' | ' - ';
}) {
  return (
    <>
      {standing.status}
      {standing.overdueText !== null && (
        <>
          {separator}
          <span
            className={standing.overdue ? 'overdue' : undefined}
            style={standing.overdue ? OVERDUE_STYLE : undefined}
            data-overdue={standing.overdue || undefined}
          >
            {standing.overdueText}
          </span>
        </>
      )}
    </>
  );
}
