import { HandleEvent } from '@irp/platform';
import { EventOf, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RunInitialPoll } from './run-initial-poll';

/**
 * The poller role runs initial polls: a poller that dies mid-run leaves the message uncommitted, and the
 * poller that gets it resumes at the year the row says.
 */
@Controller()
export class InitialPollHandlers {
  constructor(private readonly running: RunInitialPoll) {}

  @HandleEvent(Topics.InitialPollRequested)
  async requested(@Payload() event: EventOf<typeof Topics.InitialPollRequested>) {
    // Years of history take long: the platform heartbeats every handler while it runs.
    await this.running.run(event);
  }
}
