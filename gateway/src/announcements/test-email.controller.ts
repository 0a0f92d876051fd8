import { ErrorCode, GlobalRole, SendEmailBodySchema, SuccessSchema } from '@irp/proto';
import { AppError } from '@irp/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { Roles } from '../auth/decorators';
import { Contract } from '../common/contract';

export const TEST_EMAIL_UNAVAILABLE =
  'Test emails are sent by the email-marketing service, which is not installed yet';

/**
 * The System settings screen's test email. Every email is the email-marketing service's to send, and that
 * service does not exist yet: until it does, the route answers a clear 503 rather than pretend. The
 * email issue replaces this handler (and may move the route to its own module); nothing else depends on it.
 */
@ApiTags('announcements')
@Controller('api/admin')
@Roles(GlobalRole.Admin)
export class TestEmailController {
  @Post('sendEmail')
  @HttpCode(200)
  @Contract({ body: SendEmailBodySchema, response: SuccessSchema })
  @ApiOperation({ summary: 'Send a test email (503 until the email-marketing service is installed)' })
  sendEmail(@Body() _body: z.output<typeof SendEmailBodySchema>): z.input<typeof SuccessSchema> {
    throw new AppError(ErrorCode.ServiceUnavailable, TEST_EMAIL_UNAVAILABLE);
  }
}
