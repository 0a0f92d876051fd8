import { createLogger, errorText, SERVICE_CONFIG, SingletonJobs } from '@irp/platform';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { InvoicingConfig } from '../config';
import { INVOICE_PAGE_SIZE } from '../accounting/accounting-client';
import { Accounting } from '../accounting/accounting.provider';
import { SyncStateRepository } from '../accounting/sync-state.repository';
import {
  invoiceRecord,
  InvoiceRecord,
  repeatingInvoiceRecord,
  RepeatingInvoiceRecord,
} from './accounting-record-rules';
import { InvoicesRepository } from './invoices.repository';
import { RepeatingInvoicesRepository } from './repeating-invoices.repository';

const log = createLogger('accounting-sync');

export const ACCOUNTING_SYNC_JOB = 'invoicing:accounting-sync';

export interface SyncResult {
  full: boolean;
  /** Pages of invoices read. */
  pages: number;
  invoices: number;
  /** Repeating invoices read (null when they were not read this time). */
  repeatingInvoices: number | null;
  /** Requests made to the accounting system (token requests aside). */
  requests: number;
  ms: number;
}

/**
 * Reads the accounting system into this service's tables. Scheduled (one instance, the platform's singleton
 * job, every ACCOUNTING_SYNC_INTERVAL_MS) and 'Refresh Accounting': the invoices changed since the newest
 * change seen (If-Modified-Since; all of them the first time), so a sync with nothing changed is one
 * request. Repeating invoices have no change date: they are read on a refresh, when a new invoice made by
 * a schedule arrived (its next date moved), and at least every ACCOUNTING_REPEATING_REFRESH_MS. `full`
 * reads every invoice again (repair). Syncs of one process run one after another; two processes may overlap
 * harmlessly (upserts keep the newer version; the change mark only moves forward).
 */
@Injectable()
export class AccountingSync implements OnModuleInit {
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly jobs: SingletonJobs,
    private readonly invoices: InvoicesRepository,
    private readonly repeatingInvoices: RepeatingInvoicesRepository,
    private readonly syncState: SyncStateRepository,
    private readonly accounting: Accounting,
    @Inject(SERVICE_CONFIG) private readonly config: InvoicingConfig,
  ) {}

  onModuleInit() {
    if (!this.accounting.configured) {
      log.warn('no accounting system configured (ACCOUNTING_BASE_URL): invoices are not synced');
      return;
    }
    this.jobs.register({
      name: ACCOUNTING_SYNC_JOB,
      intervalMs: this.config.ACCOUNTING_SYNC_INTERVAL_MS,
      run: async () => {
        await this.sync({ full: false });
      },
    });
  }

  /** One sync, after any this process is running; a failure is recorded (and thrown) with its message. */
  sync(options: { full: boolean; repeating?: boolean }): Promise<SyncResult> {
    const next = this.running.catch(() => undefined).then(() => this.run(options));
    this.running = next;
    return next;
  }

  private async run({ full, repeating }: { full: boolean; repeating?: boolean }): Promise<SyncResult> {
    const client = this.accounting.use();
    const started = Date.now();
    const requestsBefore = client.requests;
    const state = await this.syncState.syncState();
    const since = full ? null : state.invoicesModifiedSince;
    let newest = state.invoicesModifiedSince;
    let pages = 0;
    let count = 0;
    let schedulesRan = false;
    try {
      for (let page = 1; ; page++) {
        const batch = await client.invoices(page, since);
        pages += 1;
        const records = batch.map(invoiceRecord).filter((r): r is InvoiceRecord => r !== null);
        const fromSchedules = records.filter((r) => r.repeatingInvoiceId).map((r) => r.invoiceId);
        if (since && fromSchedules.length) {
          const known = await this.invoices.knownInvoiceIds(fromSchedules);
          if (fromSchedules.some((id) => !known.has(id))) schedulesRan = true;
        }
        await this.invoices.upsertInvoices(records);
        count += records.length;
        for (const r of records) {
          const updated = new Date(r.updatedUtc);
          if (!newest || updated > newest) newest = updated;
        }
        if (batch.length < INVOICE_PAGE_SIZE) break;
      }
      const repeatingDue =
        full ||
        repeating === true ||
        schedulesRan ||
        !state.repeatingSyncedAt ||
        Date.now() - state.repeatingSyncedAt.getTime() >= this.config.ACCOUNTING_REPEATING_REFRESH_MS;
      let repeatingCount: number | null = null;
      if (repeatingDue) {
        const repeating = (await client.repeatingInvoices())
          .map(repeatingInvoiceRecord)
          .filter((r): r is RepeatingInvoiceRecord => r !== null);
        await this.repeatingInvoices.saveRepeatingInvoices(repeating, true);
        repeatingCount = repeating.length;
      }
      await this.syncState.recordSync({ modifiedSince: newest, repeatingRead: repeatingDue, error: null });
      const result: SyncResult = {
        full,
        pages,
        invoices: count,
        repeatingInvoices: repeatingCount,
        requests: client.requests - requestsBefore,
        ms: Date.now() - started,
      };
      log.info(result, 'accounting synced');
      return result;
    } catch (error) {
      // What was read before the failure is kept; the change mark stays, so the next sync reads it again.
      await this.syncState
        .recordSync({ modifiedSince: null, repeatingRead: false, error: errorText(error) })
        .catch(() => undefined);
      log.error({ err: errorText(error), full, pages }, 'accounting sync failed');
      throw error;
    }
  }
}
