import { defineService, stockProjectionRole } from '@irp/platform';
import { AnnouncementEntity } from './stored-announcements/announcement.entity';
import { AnnouncementsHandlers } from './announcements/announcements.handlers';
import { AnnouncementsRepository } from './announcements/announcements.repository';
import { DeleteAnnouncementService } from './announcements/delete-announcement.service';
import { ReadAnnouncementsService } from './announcements/read-announcements.service';
import { SaveAnnouncementService } from './announcements/save-announcement.service';
import { SendAnnouncementService } from './announcements/send-announcement.service';
import { WidgetService } from './announcements/widget.service';
import { UploadPartsRepository } from './announcements/upload-parts.repository';
import { UploadStaging } from './announcements/upload-staging';
import { UploadPartEntity } from './announcements/upload-part.entity';
import { CommentEntity } from './comments/comment.entity';
import { CommentsHandlers } from './comments/comments.handlers';
import { CommentsRepository } from './comments/comments.repository';
import { CommentReads } from './comments/comment-reads';
import { PostComment } from './comments/post-comment';
import { RespondToComment } from './comments/respond-to-comment';
import { announcementsConfigSchema, refineAnnouncementsConfig } from './config';
import { AlertLatency1795490000000 } from './database/migrations/1795490000000-AlertLatency';
import { AnnouncementComments1795500000000 } from './database/migrations/1795500000000-AnnouncementComments';
import { InitialPollOwnedHere1795600000000 } from './database/migrations/1795600000000-InitialPollOwnedHere';
import { SentBecomesSendRequested1795700000000 } from './database/migrations/1795700000000-SentBecomesSendRequested';
import { PolledTickerKeyIndex1795800000000 } from './database/migrations/1795800000000-PolledTickerKeyIndex';
import { CreateAnnouncements1795468640785 } from './database/migrations/1795468640785-CreateAnnouncements';
import { AnnouncementStore } from './ingestion/announcement-store';
import { AutoSendHandlers } from './auto-send/auto-send.handlers';
import { AutoSendRepository } from './auto-send/auto-send.repository';
import { AutoSendService } from './auto-send/auto-send.service';
import { ErrorReporter } from './error-reports/error-reporter';
import { InitialPollEntity } from './initial-poll/initial-poll.entity';
import { InitialPollHandlers } from './initial-poll/initial-poll.handlers';
import { InitialPollRequestHandlers } from './initial-poll/initial-poll-requests.handlers';
import { ConsiderStock } from './initial-poll/consider-stock';
import { InitialPollReads } from './initial-poll/initial-poll-reads';
import { RecordDemoInitialPoll } from './initial-poll/record-demo-initial-poll';
import { ResumeStalledInitialPolls } from './initial-poll/resume-stalled-initial-polls';
import { ResyncStock } from './initial-poll/resync-stock';
import { RunInitialPoll } from './initial-poll/run-initial-poll';
import { StartInitialPoll } from './initial-poll/start-initial-poll';
import { InitialPollsRepository } from './initial-poll/initial-polls.repository';
import { DueStocksRepository } from './scheduling/due-stocks.repository';
import { PollScheduler } from './scheduling/poll-scheduler';
import { PollerHandlers } from './polling/poller.handlers';
import { MarketPoll } from './polling/market-poll';
import { SourceCalls } from './polling/source-calls';
import { DetectedAnnouncementsRepository } from './ingestion/detected-announcements.repository';
import { PollRepository } from './polling/poll.repository';
import { PollService } from './polling/poll.service';
import { SourceHealthEntity } from './source-health/source-health.entity';
import { SourceHealthRepository } from './source-health/source-health.repository';
import { SourceProvider } from './ingestion/source-provider';
import { ReconcileEntity } from './reconcile/reconcile.entity';
import { ReconcileHandlers } from './reconcile/reconcile.handlers';
import { ApplyReconcile } from './reconcile/apply-reconcile';
import { ReconcileReads } from './reconcile/reconcile-reads';
import { ReconcileWork } from './reconcile/reconcile-work';
import { RunReconcile } from './reconcile/run-reconcile';
import { ReconcilesRepository } from './reconcile/reconciles.repository';
import { PublishSystemSettings } from './settings/publish-system-settings';
import { SystemSettingsEntity } from './settings/system-settings.entity';
import { SystemSettingsHandlers } from './settings/system-settings.handlers';
import { SystemSettingsRepository } from './settings/system-settings.repository';
import { SystemSettingsService } from './settings/system-settings.service';
import { FileStorageProvider } from './storage/file-storage.provider';
import { StockProjectionEntity } from './stocks/stock-projection.entity';
import { StockProjectionService } from './stocks/stock-projection.repository';
import { ToolsHandlers } from './tools/tools.handlers';
import { ToolsRepository } from './tools/tools.repository';
import { ToolsService } from './tools/tools.service';

/** `stock.upserted` and the bootstrap / drift repair from `stocks.list`, in the api role. */
const stockProjection = stockProjectionRole(StockProjectionService);

/**
 * The announcements service (DESIGN.md): roles `api` (requests, the stock projection, resync, reconcile,
 * tools, comments, the system settings and their `system-settings.saved`), `scheduler` (one active: publishes
 * poll work every POLL_INTERVAL_MS) and `poller` (any number: polls, stores, downloads PDFs, runs initial
 * polls, decides auto-sends).
 */
export const announcementsService = defineService({
  name: 'announcements',
  config: announcementsConfigSchema,
  refineConfig: refineAnnouncementsConfig,
  database: {
    entities: [
      StockProjectionEntity,
      AnnouncementEntity,
      UploadPartEntity,
      SystemSettingsEntity,
      InitialPollEntity,
      SourceHealthEntity,
      ReconcileEntity,
      CommentEntity,
    ],
    migrations: [
      CreateAnnouncements1795468640785,
      AlertLatency1795490000000,
      AnnouncementComments1795500000000,
      InitialPollOwnedHere1795600000000,
      SentBecomesSendRequested1795700000000,
      PolledTickerKeyIndex1795800000000,
    ],
  },
  providers: [
    FileStorageProvider,
    AnnouncementsRepository,
    UploadPartsRepository,
    UploadStaging,
    SystemSettingsRepository,
    ToolsRepository,
    CommentsRepository,
    PollRepository,
    ReconcilesRepository,
    InitialPollsRepository,
    DetectedAnnouncementsRepository,
    SourceHealthRepository,
    AutoSendRepository,
    StockProjectionService,
    SystemSettingsService,
    SourceProvider,
    ErrorReporter,
    AnnouncementStore,
    InitialPollReads,
    StartInitialPoll,
    ResyncStock,
    ConsiderStock,
    RunInitialPoll,
    ResumeStalledInitialPolls,
    RecordDemoInitialPoll,
    ReadAnnouncementsService,
    SaveAnnouncementService,
    DeleteAnnouncementService,
    SendAnnouncementService,
    WidgetService,
    PollService,
    MarketPoll,
    SourceCalls,
    AutoSendService,
    ReconcileWork,
    RunReconcile,
    ApplyReconcile,
    ReconcileReads,
    ToolsService,
    CommentReads,
    PostComment,
    RespondToComment,
  ],
  roles: {
    api: {
      handlers: [
        ...stockProjection.handlers,
        AnnouncementsHandlers,
        SystemSettingsHandlers,
        InitialPollRequestHandlers,
        ReconcileHandlers,
        ToolsHandlers,
        CommentsHandlers,
      ],
      // The api role owns the system settings (their requests): it publishes them once at start.
      providers: [...stockProjection.providers, PublishSystemSettings],
    },
    scheduler: { providers: [DueStocksRepository, PollScheduler] },
    poller: { handlers: [PollerHandlers, InitialPollHandlers, AutoSendHandlers] },
  },
});
