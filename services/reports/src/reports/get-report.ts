import { AppError } from '@irp/platform';
import { ErrorCode, ReportView } from '@irp/proto';
import { Injectable } from '@nestjs/common';
import { ReportsRepository, StoredReport } from './reports.repository';

/** A stored report's view by its guid (the public report page: the guid is the only key). */
@Injectable()
export class GetReport {
  constructor(private readonly reports: ReportsRepository) {}

  async run(guid: string): Promise<ReportView> {
    return (await this.stored(guid)).view;
  }

  /** The stored report, or NotFound (a guid as typed: case and spaces aside). */
  async stored(guid: string): Promise<StoredReport> {
    const report = await this.reports.byGuid(guid.trim().toLowerCase());
    if (!report) throw new AppError(ErrorCode.NotFound, 'Report not found');
    return report;
  }
}
