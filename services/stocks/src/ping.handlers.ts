import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';

/** Answers the gateway's /health probe through Kafka, proving the whole path works. */
@Controller()
export class PingHandlers {
  @MessagePattern(Topics.StocksPing)
  ping() {
    return {
      service: 'stocks',
      instance: process.env.INSTANCE_ID ?? String(process.pid),
      at: new Date().toISOString(),
    };
  }
}
