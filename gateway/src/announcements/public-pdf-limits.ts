import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { SharedLimiter, SharedLimitStore } from '../limits/limit-store';
import { clientAddressOf, refuseOverLimit } from '../limits/public-limits';

type PublicPdfLimitConfig = Pick<GatewayConfig, 'PUBLIC_PDF_RATE_PER_ADDRESS' | 'PUBLIC_PDF_RATE_WINDOW_MS'>;

/**
 * The public announcement PDFs, limited per client address in the store every gateway instance shares
 * (issue 34): each is read from the announcements service in chunks over Kafka, so a loop over guids would
 * load the service and the broker. While the store is down each instance counts on its own (the links in
 * mails and on client websites stay up). A refusal is a 429 with Retry-After.
 */
@Injectable()
export class PublicPdfLimits {
  private readonly perAddress: SharedLimiter;

  constructor(store: SharedLimitStore, @Inject(GATEWAY_CONFIG) config: PublicPdfLimitConfig) {
    this.perAddress = store.limiter(
      'public-pdf-address',
      config.PUBLIC_PDF_RATE_PER_ADDRESS,
      Math.ceil(config.PUBLIC_PDF_RATE_WINDOW_MS / 1000),
      { whenStoreDown: 'count-here' },
    );
  }

  async download(req: Request, res: Response): Promise<void> {
    await refuseOverLimit(
      this.perAddress,
      `address:${clientAddressOf(req)}`,
      res,
      (s) => `Too many announcement PDFs from this address: try again in ${s} seconds`,
    );
  }
}
