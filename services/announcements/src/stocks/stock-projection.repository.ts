import { StockProjection } from '@irp/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InitialPollService } from '../initial-poll/initial-poll.service';
import { StockProjectionEntity } from './stock-projection.entity';

/**
 * The service's projection of the stocks (the platform's module), read by every feature here. A stock that
 * changed is considered for an initial poll: one with Poll on whose initial poll is not complete gets one
 * (InitialPollService decides whether one is already under way).
 */
@Injectable()
export class StockProjectionService extends StockProjection<StockProjectionEntity> {
  constructor(dataSource: DataSource, initialPolls: InitialPollService) {
    super(dataSource, {
      service: 'announcements',
      entity: StockProjectionEntity,
      onChanged: (stock) => initialPolls.considerStock(stock),
    });
  }
}
