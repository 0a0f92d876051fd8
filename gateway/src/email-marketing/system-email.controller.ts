import {
  GlobalRole,
  SendEmailBodySchema,
  SendSystemEmailResponseSchema,
  SessionUser,
  Topics,
} from '@irp/proto';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles } from '../auth/decorators';
import { Contract } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';

/** The System settings screen's test email: sent at once by the email-marketing service. */
@ApiTags('email-marketing')
@Controller('api/admin')
@Roles(GlobalRole.Admin)
export class SystemEmailController {
  constructor(private readonly services: ServicesClient) {}

  @Post('sendEmail')
  @HttpCode(200)
  @Contract({ body: SendEmailBodySchema, response: SendSystemEmailResponseSchema })
  @ApiOperation({ summary: 'Send a test email to the address(es) given (comma or semicolon separated)' })
  async sendEmail(@CurrentUser() actor: SessionUser, @Body() body: z.output<typeof SendEmailBodySchema>) {
    await this.services.request(Topics.EmailMarketingSendSystemEmail, { actor, to: body.email });
    return { success: true, errorMessage: null };
  }
}
