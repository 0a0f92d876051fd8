import { Module } from '@nestjs/common';
import { WidgetModule } from '../widget/widget.module';
import { EmailMarketingController } from './email-marketing.controller';
import {
  SubscribersController,
  SubscriptionController,
  WidgetSubscribeController,
} from './subscriptions.controller';
import { SystemEmailController } from './system-email.controller';

/**
 * The email routes of docs/api/email-marketing.md: a stock's email-marketing settings, subscriber count and
 * test sends, the system test email, the widget's subscribe, the subscribers' confirm and unsubscribe
 * links, and the staff subscriber list. Every route asks the email-marketing service.
 */
@Module({
  imports: [WidgetModule],
  controllers: [
    EmailMarketingController,
    SystemEmailController,
    WidgetSubscribeController,
    SubscriptionController,
    SubscribersController,
  ],
})
export class EmailMarketingModule {}
