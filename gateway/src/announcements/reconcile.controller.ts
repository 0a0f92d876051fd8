import {
  GlobalRole,
  ReconcileIdParamsSchema,
  ReconcileLastResponseSchema,
  ReconcileResponseSchema,
  ReconcileRunQuerySchema,
  SessionUser,
  Topics,
} from '@irp/proto';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { z } from 'zod';
import { CurrentUser, Roles } from '../auth/decorators';
import { Contract, NoBodySchema } from '../common/contract';
import { ServicesClient } from '../kafka/services.client';

/**
 * Reconcile (System settings): compare the source's last N days with what is stored, per stock, then
 * store what is missing on request. A run works in the background; the screen polls `get/{id}`.
 */
@ApiTags('announcements')
@Controller('api/reconcile')
@Roles(GlobalRole.Admin)
export class ReconcileController {
  constructor(private readonly services: ServicesClient) {}

  @Post('run')
  @HttpCode(200)
  @Contract({ query: ReconcileRunQuerySchema, body: NoBodySchema, response: ReconcileResponseSchema })
  @ApiOperation({ summary: 'Start a reconcile of the last numDays days (1 to 90, default 7)' })
  async run(@CurrentUser() actor: SessionUser, @Query() query: z.output<typeof ReconcileRunQuerySchema>) {
    return (await this.services.request(Topics.AnnouncementsReconcileRun, { actor, numDays: query.numDays }))
      .reconcile;
  }

  @Get('get/:id')
  @Contract({ params: ReconcileIdParamsSchema, response: ReconcileResponseSchema })
  @ApiOperation({ summary: 'A reconcile run: its progress and, per ticker, the announcements missing here' })
  async get(@Param('id') id: string) {
    return (await this.services.request(Topics.AnnouncementsReconcileGet, { id })).reconcile;
  }

  @Post('apply/:id')
  @HttpCode(200)
  @Contract({ params: ReconcileIdParamsSchema, body: NoBodySchema, response: ReconcileResponseSchema })
  @ApiOperation({ summary: 'Store the announcements a completed reconcile found (never sent automatically)' })
  async apply(@CurrentUser() actor: SessionUser, @Param('id') id: string) {
    return (await this.services.request(Topics.AnnouncementsReconcileApply, { actor, id })).reconcile;
  }

  @Get('last')
  @Contract({ response: ReconcileLastResponseSchema })
  @ApiOperation({ summary: 'The latest reconcile run, or null when none ran' })
  async last() {
    return (await this.services.request(Topics.AnnouncementsReconcileLast, {})).reconcile;
  }
}
