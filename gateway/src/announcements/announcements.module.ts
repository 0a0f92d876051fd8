import { Module } from '@nestjs/common';
import { CommentsController } from '../comments/comments.controller';
import { AnnouncementAdminController } from './announcement-admin.controller';
import { AnnouncementsController } from './announcements.controller';
import { ReconcileController } from './reconcile.controller';

/**
 * The announcement routes of docs/api/announcements.md, with the comment moderation routes. Every route asks the announcements service; this
 * module checks shapes and roles, passes uploaded PDFs on in chunks and streams stored ones back. The
 * stock page's announcements are composed by the stocks module (StockPageComposer), the widget's by the
 * widget module.
 */
@Module({
  controllers: [
    AnnouncementsController,
    AnnouncementAdminController,
    ReconcileController,
    CommentsController,
  ],
})
export class AnnouncementsModule {}
