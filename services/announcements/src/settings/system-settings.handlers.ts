import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { SystemSettingsService } from './system-settings.service';

@Controller()
export class SystemSettingsHandlers {
  constructor(private readonly settings: SystemSettingsService) {}

  @HandleRequest(Topics.AnnouncementsSystemSettings)
  async get() {
    return { settings: await this.settings.get() };
  }

  @HandleRequest(Topics.AnnouncementsSaveSystemSettings)
  async save(@Payload() req: HandledRequest<typeof Topics.AnnouncementsSaveSystemSettings>) {
    return { settings: await this.settings.save(req.actor, req.settings) };
  }
}
