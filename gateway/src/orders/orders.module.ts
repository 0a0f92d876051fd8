import { Module } from '@nestjs/common';
import { OrderLimits } from './order-limits';
import { ServiceOrdersController } from './service-orders.controller';

/** The service order routes (public order form, staff Orders) and the form's per-address limits. */
@Module({ controllers: [ServiceOrdersController], providers: [OrderLimits] })
export class OrdersModule {}
