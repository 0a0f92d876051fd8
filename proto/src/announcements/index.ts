import { defineServiceContract } from '../common/contract';
import { announcementRoutes } from './routes';
import {
  AnnouncementConfirmationRequestedEventSchema,
  AnnouncementDetectedEventSchema,
  AnnouncementSendRequestedEventSchema,
  ErrorReportedEventSchema,
  SystemSettingsSavedEventSchema,
  InitialPollProgressedEventSchema,
  InitialPollRequestedEventSchema,
  PollRequestedEventSchema,
  MarketItemsListedEventSchema,
} from './events';
import {
  AnnouncementHeadlinesReplySchema,
  AnnouncementHeadlinesRequestSchema,
  AnnouncementListReplySchema,
  AnnouncementReplySchema,
  DeleteAnnouncementRequestSchema,
  DiskReportReplySchema,
  DiskReportRequestSchema,
  FileCleanupReplySchema,
  FileCleanupRequestSchema,
  GetSystemSettingsRequestSchema,
  InitialPollStatusesReplySchema,
  InitialPollStatusesRequestSchema,
  ListAnnouncementsRequestSchema,
  ReadFileReplySchema,
  ReadFileRequestSchema,
  ReconcileApplyRequestSchema,
  ReconcileGetRequestSchema,
  ReconcileLastReplySchema,
  ReconcileLastRequestSchema,
  ReconcileReplySchema,
  ReconcileRunRequestSchema,
  ResyncReplySchema,
  ResyncRequestSchema,
  SaveAnnouncementRequestSchema,
  SaveSystemSettingsRequestSchema,
  SendAnnouncementRequestSchema,
  SendConfirmationReplySchema,
  SendConfirmationRequestSchema,
  SystemSettingsReplySchema,
  UploadPartReplySchema,
  UploadPartRequestSchema,
  WidgetAnnouncementsRequestSchema,
  WidgetOpenAnnouncementRequestSchema,
} from './messages';
import { WidgetAnnouncementListSchema, WidgetAnnouncementReplySchema } from './rest';
import {
  CommentGroupsRequestSchema,
  CommentPostedEventSchema,
  CommentRespondedEventSchema,
  CommentsResultSchema,
  GetCommentReplySchema,
  GetCommentRequestSchema,
  PostCommentReplySchema,
  PostCommentRequestSchema,
  RespondToCommentRequestSchema,
  WidgetCommentGroupsRequestSchema,
  WidgetCommentGroupsSchema,
  WidgetCommentListSchema,
  WidgetCommentsRequestSchema,
} from './comments';

export * from './auto-send-filter';
export * from './comment-rules';
export * from './comments';
export * from './events';
export * from './messages';
export * from './records';
export * from './rest';
export * from './routes';
export * from './rules';

/**
 * The announcements service: sources, polling (scheduler and poller roles), initial poll and resync,
 * stored announcements and their PDFs, auto-send rules, system settings, reconcile, file cleanup, disk report.
 * Who was mailed an announcement is the email-marketing service's (docs/adr/0013); the error email it
 * publishes as `system-settings.saved` for the staff mails that service sends.
 */
export const announcementsContract = defineServiceContract({
  service: 'announcements',
  routes: announcementRoutes,
  requests: {
    AnnouncementsList: {
      topic: 'announcements.list',
      request: ListAnnouncementsRequestSchema,
      reply: AnnouncementListReplySchema,
    },
    AnnouncementsHeadlines: {
      topic: 'announcements.headlines',
      request: AnnouncementHeadlinesRequestSchema,
      reply: AnnouncementHeadlinesReplySchema,
    },
    AnnouncementsInitialPollStatuses: {
      topic: 'announcements.initial-poll-statuses',
      request: InitialPollStatusesRequestSchema,
      reply: InitialPollStatusesReplySchema,
    },
    AnnouncementsUploadPart: {
      topic: 'announcements.upload-part',
      request: UploadPartRequestSchema,
      reply: UploadPartReplySchema,
      mutates: true,
    },
    AnnouncementsSave: {
      topic: 'announcements.save',
      request: SaveAnnouncementRequestSchema,
      reply: AnnouncementReplySchema,
      mutates: true,
    },
    AnnouncementsDelete: {
      topic: 'announcements.delete',
      request: DeleteAnnouncementRequestSchema,
      reply: AnnouncementReplySchema,
      mutates: true,
    },
    AnnouncementsSend: {
      topic: 'announcements.send',
      request: SendAnnouncementRequestSchema,
      reply: AnnouncementReplySchema,
      mutates: true,
    },
    AnnouncementsSendConfirmation: {
      topic: 'announcements.send-confirmation',
      request: SendConfirmationRequestSchema,
      reply: SendConfirmationReplySchema,
      mutates: true,
    },
    AnnouncementsResync: {
      topic: 'announcements.resync',
      request: ResyncRequestSchema,
      reply: ResyncReplySchema,
      mutates: true,
    },
    AnnouncementsReadFile: {
      topic: 'announcements.read-file',
      request: ReadFileRequestSchema,
      reply: ReadFileReplySchema,
    },
    AnnouncementsWidgetList: {
      topic: 'announcements.widget-list',
      request: WidgetAnnouncementsRequestSchema,
      reply: WidgetAnnouncementListSchema,
    },
    AnnouncementsWidgetOpen: {
      topic: 'announcements.widget-open',
      request: WidgetOpenAnnouncementRequestSchema,
      reply: WidgetAnnouncementReplySchema,
      mutates: true,
    },
    AnnouncementsSystemSettings: {
      topic: 'announcements.system-settings',
      request: GetSystemSettingsRequestSchema,
      reply: SystemSettingsReplySchema,
    },
    AnnouncementsSaveSystemSettings: {
      topic: 'announcements.save-system-settings',
      request: SaveSystemSettingsRequestSchema,
      reply: SystemSettingsReplySchema,
      mutates: true,
    },
    AnnouncementsFileCleanup: {
      topic: 'announcements.file-cleanup',
      request: FileCleanupRequestSchema,
      reply: FileCleanupReplySchema,
    },
    AnnouncementsDiskReport: {
      topic: 'announcements.disk-report',
      request: DiskReportRequestSchema,
      reply: DiskReportReplySchema,
    },
    AnnouncementsReconcileRun: {
      topic: 'announcements.reconcile-run',
      request: ReconcileRunRequestSchema,
      reply: ReconcileReplySchema,
      mutates: true,
    },
    AnnouncementsReconcileGet: {
      topic: 'announcements.reconcile-get',
      request: ReconcileGetRequestSchema,
      reply: ReconcileReplySchema,
    },
    AnnouncementsReconcileApply: {
      topic: 'announcements.reconcile-apply',
      request: ReconcileApplyRequestSchema,
      reply: ReconcileReplySchema,
      mutates: true,
    },
    CommentsPost: {
      topic: 'announcements.post-comment',
      request: PostCommentRequestSchema,
      reply: PostCommentReplySchema,
      mutates: true,
    },
    CommentsWidgetList: {
      topic: 'announcements.widget-comments',
      request: WidgetCommentsRequestSchema,
      reply: WidgetCommentListSchema,
    },
    CommentsWidgetGroups: {
      topic: 'announcements.widget-comment-groups',
      request: WidgetCommentGroupsRequestSchema,
      reply: WidgetCommentGroupsSchema,
    },
    CommentsGroups: {
      topic: 'announcements.comment-groups',
      request: CommentGroupsRequestSchema,
      reply: CommentsResultSchema,
    },
    CommentsGet: {
      topic: 'announcements.get-comment',
      request: GetCommentRequestSchema,
      reply: GetCommentReplySchema,
    },
    CommentsRespond: {
      topic: 'announcements.respond-to-comment',
      request: RespondToCommentRequestSchema,
      reply: GetCommentReplySchema,
      mutates: true,
    },
    AnnouncementsReconcileLast: {
      topic: 'announcements.reconcile-last',
      request: ReconcileLastRequestSchema,
      reply: ReconcileLastReplySchema,
    },
  },
  events: {
    InitialPollProgressed: { topic: 'initial-poll.progressed', schema: InitialPollProgressedEventSchema },
    InitialPollRequested: { topic: 'initial-poll.requested', schema: InitialPollRequestedEventSchema },
    AnnouncementsPollRequested: { topic: 'announcements.poll-requested', schema: PollRequestedEventSchema },
    AnnouncementsMarketItemsListed: {
      topic: 'announcements.market-items-listed',
      schema: MarketItemsListedEventSchema,
    },
    AnnouncementDetected: { topic: 'announcement.detected', schema: AnnouncementDetectedEventSchema },
    AnnouncementSendRequested: {
      topic: 'announcement.send-requested',
      schema: AnnouncementSendRequestedEventSchema,
    },
    /**
     * A price-sensitive announcement's send request (docs/adr/0018): the sender takes it in a consumer of its
     * own, so it never waits behind a routine send's expansion.
     */
    AnnouncementPrioritySendRequested: {
      topic: 'announcement.priority-send-requested',
      schema: AnnouncementSendRequestedEventSchema,
    },
    AnnouncementConfirmationRequested: {
      topic: 'announcement.confirmation-requested',
      schema: AnnouncementConfirmationRequestedEventSchema,
    },
    ErrorReported: { topic: 'error.reported', schema: ErrorReportedEventSchema },
    SystemSettingsSaved: { topic: 'system-settings.saved', schema: SystemSettingsSavedEventSchema },
    CommentPosted: { topic: 'comment.posted', schema: CommentPostedEventSchema },
    CommentResponded: { topic: 'comment.responded', schema: CommentRespondedEventSchema },
  },
});
