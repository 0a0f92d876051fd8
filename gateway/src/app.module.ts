import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AnnouncementsModule } from './announcements/announcements.module';
import { EmailMarketingModule } from './email-marketing/email-marketing.module';
import { InvoicingModule } from './invoicing/invoicing.module';
import { ReportsModule } from './reports/reports.module';
import { AuthController } from './auth/auth.controller';
import { SecondFactorSignInController } from './auth/second-factor-sign-in.controller';
import { ServicesStockResolver } from './routing/services-stock-resolver';
import { STOCK_RESOLVER } from './routing/stock-resolver';
import { AuthGuard } from './auth/auth.guard';
import { LoginThrottle, LoginThrottlerGuard } from './auth/login-throttler.guard';
import { SessionService } from './auth/session.service';
import { BusSeal } from './auth/bus-seal';
import { HttpErrorFilter } from './common/http-exception.filter';
import { GATEWAY_CONFIG, GatewayConfig } from './config';
import { HealthController } from './health/health.controller';
import { OpsListener } from './health/ops-listener';
import { SharedLimitStore } from './limits/limit-store';
import { ServicesClient } from './kafka/services.client';
import { OrdersModule } from './orders/orders.module';
import { StocksModule } from './stocks/stocks.module';
import { UsersModule } from './users/users.module';
import { WidgetModule } from './widget/widget.module';

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        StocksModule,
        OrdersModule,
        AnnouncementsModule,
        EmailMarketingModule,
        InvoicingModule,
        ReportsModule,
        UsersModule,
        WidgetModule,
      ],
      controllers: [AuthController, SecondFactorSignInController, HealthController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        ServicesClient,
        SessionService,
        BusSeal,
        SharedLimitStore,
        OpsListener,
        LoginThrottle,
        LoginThrottlerGuard,
        { provide: STOCK_RESOLVER, useClass: ServicesStockResolver },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
      exports: [
        GATEWAY_CONFIG,
        ServicesClient,
        SessionService,
        BusSeal,
        STOCK_RESOLVER,
        SharedLimitStore,
        LoginThrottle,
      ],
    };
  }
}
