import { describe, expect, it } from 'vitest';
import { sessionUser } from '@/test/render';
import { defaultStockTab, resolveStockTab, tabHasSaveButton, visibleStockTabs } from './stockTabs';

const admin = sessionUser('admin', { Admin: true, InvoiceTotal: true });
const adminWithoutInvoices = sessionUser('admin2', { Admin: true });
const reports = sessionUser('reports', { RunReports: true });
const reportsWithInvoices = sessionUser('invoicer', { RunReports: true, InvoiceTotal: true });
const client = sessionUser('client', {}, { 's-1': ['ViewConfig'] });

describe('stock tabs by role', () => {
  it('shows admins every tab, Invoices too without InvoiceTotal (Admin implies all, spec section 6)', () => {
    expect(visibleStockTabs(admin)).toEqual([
      'config',
      'market',
      'email-marketing',
      'announcements',
      'invoices',
      'notes',
      'reports',
    ]);
    expect(visibleStockTabs(adminWithoutInvoices)).toEqual(visibleStockTabs(admin));
  });

  it('shows a report-runner holding InvoiceTotal Invoices beside Reports, as the invoicing routes allow', () => {
    expect(visibleStockTabs(reportsWithInvoices)).toEqual(['invoices', 'reports']);
    expect(defaultStockTab(reportsWithInvoices)).toBe('reports');
    expect(resolveStockTab(reportsWithInvoices, 'invoices')).toBe('invoices');
    expect(resolveStockTab(reportsWithInvoices, 'config')).toBe('reports');
  });

  it('shows report-runners only Reports, and others nothing', () => {
    expect(visibleStockTabs(reports)).toEqual(['reports']);
    expect(visibleStockTabs(client)).toEqual([]);
    expect(visibleStockTabs(null)).toEqual([]);
  });

  it('defaults to Config for admins, otherwise Reports', () => {
    expect(defaultStockTab(admin)).toBe('config');
    expect(defaultStockTab(reports)).toBe('reports');
    expect(defaultStockTab(client)).toBeUndefined();
  });

  it('resolves the URL segment in any case, falling back to the default tab', () => {
    expect(resolveStockTab(admin, 'Notes')).toBe('notes');
    expect(resolveStockTab(admin, 'email-marketing')).toBe('email-marketing');
    expect(resolveStockTab(admin, undefined)).toBe('config');
    expect(resolveStockTab(admin, 'nonsense')).toBe('config');
    expect(resolveStockTab(adminWithoutInvoices, 'invoices')).toBe('invoices');
    expect(resolveStockTab(reports, 'invoices')).toBe('reports');
    expect(resolveStockTab(reports, 'config')).toBe('reports');
  });

  it('has a Save button on every tab but Notes and Reports (spec section 2)', () => {
    expect(tabHasSaveButton('config')).toBe(true);
    expect(tabHasSaveButton('market')).toBe(true);
    expect(tabHasSaveButton('email-marketing')).toBe(true);
    expect(tabHasSaveButton('announcements')).toBe(true);
    expect(tabHasSaveButton('invoices')).toBe(true);
    expect(tabHasSaveButton('notes')).toBe(false);
    expect(tabHasSaveButton('reports')).toBe(false);
  });
});
