import 'reflect-metadata';
import { invoicingService } from './app.module';

export const startInvoicingService = invoicingService.main(module);
