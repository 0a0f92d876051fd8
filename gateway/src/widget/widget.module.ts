import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { widgetCors } from './widget-cors.middleware';
import { WidgetKeyGuard } from './widget-key.guard';
import { WidgetRateLimiter, WidgetUnknownKeyLimiter, WidgetUnknownKeys } from './widget-rate-limiter';
import { WidgetAnnouncementsController } from './widget-announcements.controller';
import { CommentPostLimiter, WidgetCommentsController } from './widget-comments.controller';
import { WidgetController } from './widget.controller';

/**
 * The public widget API under /api/widget/: CORS for every path beneath it (errors and unknown paths
 * included), the API-key guard, the per-key rate limiter and the unknown-key defences. Later widget
 * endpoints add a controller with `@Route` handlers of `access.widget()` entries here, or import this module
 * for the guard and the shared limiter.
 */
@Module({
  controllers: [WidgetController, WidgetAnnouncementsController, WidgetCommentsController],
  providers: [
    WidgetRateLimiter,
    WidgetUnknownKeys,
    WidgetUnknownKeyLimiter,
    WidgetKeyGuard,
    CommentPostLimiter,
  ],
  exports: [WidgetRateLimiter, WidgetUnknownKeys, WidgetUnknownKeyLimiter, WidgetKeyGuard],
})
export class WidgetModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(widgetCors).forRoutes({ path: 'api/widget/{*path}', method: RequestMethod.ALL });
  }
}
