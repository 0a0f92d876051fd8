import 'reflect-metadata';
import { reportsService } from './app.module';

export const startReportsService = reportsService.main(module);
