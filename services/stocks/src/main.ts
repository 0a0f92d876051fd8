import 'reflect-metadata';
import { stocksService } from './app.module';

export const startStocksService = stocksService.main(module);
