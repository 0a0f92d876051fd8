import { HandleRequest, HandledRequest } from '@irp/platform';
import { Topics } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ApplyReconcile } from './apply-reconcile';
import { ReconcileReads } from './reconcile-reads';
import { RunReconcile } from './run-reconcile';

/** Reconcile requests (api role); a run works in the background of the instance that took the request. */
@Controller()
export class ReconcileHandlers {
  constructor(
    private readonly running: RunReconcile,
    private readonly reads: ReconcileReads,
    private readonly applying: ApplyReconcile,
  ) {}

  @HandleRequest(Topics.AnnouncementsReconcileRun)
  async run(@Payload() req: HandledRequest<typeof Topics.AnnouncementsReconcileRun>) {
    return { reconcile: await this.running.run(req.actor, req.numDays) };
  }

  @HandleRequest(Topics.AnnouncementsReconcileGet)
  async get(@Payload() req: HandledRequest<typeof Topics.AnnouncementsReconcileGet>) {
    return { reconcile: await this.reads.get(req.id) };
  }

  @HandleRequest(Topics.AnnouncementsReconcileLast)
  async last() {
    return { reconcile: await this.reads.last() };
  }

  @HandleRequest(Topics.AnnouncementsReconcileApply)
  async apply(@Payload() req: HandledRequest<typeof Topics.AnnouncementsReconcileApply>) {
    return { reconcile: await this.applying.apply(req.actor, req.id) };
  }
}
