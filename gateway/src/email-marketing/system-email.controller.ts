import { SendEmailBodySchema, SessionUser, Topics, routes } from '@irp/proto';
import { Body, Controller } from '@nestjs/common';
import { Route } from '../routing/route';
import type { z } from 'zod';
import { CurrentUser } from '../auth/decorators';
import { ServicesClient } from '../kafka/services.client';

/** The System settings screen's test email: sent at once by the email-marketing service. */
@Controller()
export class SystemEmailController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.emailMarketing.sendSystemEmail)
  async sendEmail(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof SendEmailBodySchema>) {
    await this.services.request(Topics.EmailMarketingSendSystemEmail, { actor, to: body.email });
    return { success: true, errorMessage: null };
  }
}
