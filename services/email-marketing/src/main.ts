import 'reflect-metadata';
import { emailMarketingService } from './app.module';

export const startEmailMarketingService = emailMarketingService.main(module);
