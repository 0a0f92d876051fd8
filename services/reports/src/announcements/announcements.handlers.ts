import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AnnouncementProjectionRepository } from './announcement-projection.repository';

/** The announcements service's new announcements, into this service's own table (trade analysis days). */
@Controller()
export class AnnouncementsHandlers {
  constructor(private readonly announcements: AnnouncementProjectionRepository) {}

  @HandleEvent(Topics.AnnouncementDetected)
  async detected(@Payload() event: EventOf<typeof Topics.AnnouncementDetected>) {
    const a = event.announcement;
    await this.announcements.upsert({
      id: a.id,
      stockId: event.stockId,
      date: a.date,
      headline: a.headline,
      priceSensitive: a.priceSensitive,
    });
  }
}
