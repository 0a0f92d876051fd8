import { AppError, HandleRequest, HandledRequest, requireAdminActor } from '@irp/platform';
import { isEmailAddress, splitEmailList, Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Mailer } from './mailer';
import { systemTestMail } from './templates';

/** The system settings' test email: sent at once, so the answer says whether the SMTP server took it. */
@Controller()
export class SystemMailHandlers {
  constructor(private readonly mailer: Mailer) {}

  @HandleRequest(Topics.EmailMarketingSendSystemEmail)
  async send(@Payload() req: HandledRequest<typeof Topics.EmailMarketingSendSystemEmail>) {
    requireAdminActor(req.actor, 'send the system test email');
    const to = splitEmailList(req.to);
    if (!to.length) throw new AppError('BAD_REQUEST', 'Enter an email address to send the test email to');
    const invalid = to.find((e) => !isEmailAddress(e));
    if (invalid) throw new AppError('BAD_REQUEST', `Invalid email address: ${invalid}`);
    try {
      for (const address of to) await this.mailer.send(address, systemTestMail(req.actor.username));
    } catch (err) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `The mail server refused the test email: ${(err as Error).message}`,
      );
    }
    return { to };
  }
}
