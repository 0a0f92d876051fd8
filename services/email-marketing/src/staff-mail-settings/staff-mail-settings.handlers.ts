import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RecordSystemSettings } from './record-system-settings';

/** The `api` role keeps the projections (with the stocks'): here the system settings' error email. */
@Controller()
export class StaffMailSettingsHandlers {
  constructor(private readonly recording: RecordSystemSettings) {}

  @HandleEvent(Topics.SystemSettingsSaved)
  async saved(@Payload() event: EventOf<typeof Topics.SystemSettingsSaved>) {
    await this.recording.run(event);
  }
}
