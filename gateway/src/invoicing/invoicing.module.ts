import { Module } from '@nestjs/common';
import { InvoicingController } from './invoicing.controller';

/**
 * The invoicing routes of docs/api/invoicing.md; the dashboards' invoice columns come from
 * InvoicingContributor, registered with the dashboard's contributors.
 */
@Module({ controllers: [InvoicingController] })
export class InvoicingModule {}
