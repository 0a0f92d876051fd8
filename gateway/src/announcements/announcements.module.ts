import { PublicPdfLimits } from './public-pdf-limits';
import { Module } from '@nestjs/common';
import { CommentsController } from '../comments/comments.controller';
import { AnnouncementAdminController } from './announcement-admin.controller';
import { AnnouncementDeliveries } from './announcement-deliveries';
import { AnnouncementsController } from './announcements.controller';
import { ReconcileController } from './reconcile.controller';

/**
 * The announcement routes of docs/api/announcements.md, with the comment moderation routes. Every route asks the announcements service; this
 * module checks shapes and roles, passes uploaded PDFs on in chunks and streams stored ones back, and composes
 * who was mailed each announcement from the email-marketing service (AnnouncementDeliveries, ADR 0013), which
 * the stock page's composer (stocks module) uses too. The widget's announcements are the widget module's.
 */
@Module({
  controllers: [
    AnnouncementsController,
    AnnouncementAdminController,
    ReconcileController,
    CommentsController,
  ],
  providers: [AnnouncementDeliveries, PublicPdfLimits],
  exports: [AnnouncementDeliveries],
})
export class AnnouncementsModule {}
