import { ReconcileRunQuerySchema, SessionUser, Topics, routes } from '@irp/proto';
import { Controller, Param, Query } from '@nestjs/common';
import { Route } from '../routing/route';
import { CurrentUser } from '../auth/decorators';
import type { z } from 'zod';
import { ServicesClient } from '../kafka/services.client';

/**
 * Reconcile (System settings): compare the source's last N days with what is stored, per stock, then
 * store what is missing on request. A run works in the background; the screen polls `get/{id}`.
 */
@Controller()
export class ReconcileController {
  constructor(private readonly services: ServicesClient) {}

  @Route(routes.announcements.reconcileRun)
  async run(@CurrentUser() actor: SessionUser, @Query() query: z.output<typeof ReconcileRunQuerySchema>) {
    return (await this.services.request(Topics.AnnouncementsReconcileRun, { actor, numDays: query.numDays }))
      .reconcile;
  }

  @Route(routes.announcements.reconcileGet)
  async get(@Param('id') id: string) {
    return (await this.services.request(Topics.AnnouncementsReconcileGet, { id })).reconcile;
  }

  @Route(routes.announcements.reconcileApply)
  async apply(@CurrentUser() actor: SessionUser, @Param('id') id: string) {
    return (await this.services.request(Topics.AnnouncementsReconcileApply, { actor, id })).reconcile;
  }

  @Route(routes.announcements.reconcileLast)
  async last() {
    return (await this.services.request(Topics.AnnouncementsReconcileLast, {})).reconcile;
  }
}
