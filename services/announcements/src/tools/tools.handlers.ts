import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ToolsService } from './tools.service';

/** The system settings' tools (api role); the gateway lets only admins reach them. */
@Controller()
export class ToolsHandlers {
  constructor(private readonly tools: ToolsService) {}

  @HandleRequest(Topics.AnnouncementsFileCleanup)
  async fileCleanup() {
    return this.tools.fileCleanup();
  }

  @HandleRequest(Topics.AnnouncementsDiskReport)
  async diskReport(@Payload() req: HandledRequest<typeof Topics.AnnouncementsDiskReport>) {
    return { items: await this.tools.diskReport(req.includeBillable) };
  }
}
