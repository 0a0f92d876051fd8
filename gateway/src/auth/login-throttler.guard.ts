import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request } from 'express';
import { parseBasicAuth } from './basic-auth';

/** Sign-in attempts are counted per client address and username, so one attacker cannot lock out everyone. */
@Injectable()
export class LoginThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const r = req as unknown as Request;
    const username = parseBasicAuth(r.header('authorization'))?.username.toLowerCase() ?? '';
    return `${r.ip}|${username}`;
  }
}
