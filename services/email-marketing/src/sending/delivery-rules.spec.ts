import { Topics } from '@irp/proto';
import {
  afterFailure,
  batchKey,
  batchTopicOf,
  DELIVERY_BATCH,
  laneOf,
  MAX_RETRY_DELAY_MS,
  retryDelayMs,
  sendRequestKey,
  stillSubscribed,
  uniqueRecipients,
} from './delivery-rules';

describe('delivery rules', () => {
  it('keys a send by request and channel, so a redelivered request is the same send', () => {
    expect(sendRequestKey('r-1', 'email')).toBe('announcement:r-1:email');
    expect(sendRequestKey('r-1', 'email-marketing')).toBe('announcement:r-1:email-marketing');
    expect(sendRequestKey('r-1', 'email')).not.toBe(sendRequestKey('r-2', 'email'));
  });

  it('keys batch messages per batch, and a sweeper re-queue apart from the first', () => {
    expect(batchKey('s', 0)).toBe('s:0');
    expect(batchKey('s', 3)).toBe('s:3');
    expect(batchKey('s', 0, true)).toBe('s:retry:0');
    expect(DELIVERY_BATCH).toBe(250);
  });

  it('mails each recipient of a fixed mail once, trimmed, blanks dropped', () => {
    expect(uniqueRecipients([' a@x.com', 'a@x.com ', '', '  ', 'b@x.com'])).toEqual(['a@x.com', 'b@x.com']);
    expect(uniqueRecipients([])).toEqual([]);
  });

  it('mails only confirmed subscribers with an unsubscribe token', () => {
    expect(stillSubscribed({ status: 'confirmed', id: 's-1' })).toBe(true);
    expect(stillSubscribed({ status: 'unsubscribed', id: 's-1' })).toBe(false);
    expect(stillSubscribed({ status: 'pending', id: 's-1' })).toBe(false);
    expect(stillSubscribed({ status: null, id: null })).toBe(false);
  });

  describe('retry schedule', () => {
    it('doubles from the base per attempt', () => {
      expect([1, 2, 3, 4].map((a) => retryDelayMs(a, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    });

    it('waits at most an hour', () => {
      expect(retryDelayMs(8, 30_000)).toBe(MAX_RETRY_DELAY_MS);
      expect(retryDelayMs(7, 30_000)).toBe(1_920_000);
      expect(retryDelayMs(50, 30_000)).toBe(3_600_000);
    });

    it('treats attempt 0 like the first', () => {
      expect(retryDelayMs(0, 1_000)).toBe(1_000);
    });
  });

  describe('after a failed delivery', () => {
    const policy = { maxAttempts: 3, retryBaseMs: 1_000 };

    it('retries a transient failure with the schedule until the last attempt', () => {
      expect(afterFailure({ permanent: false }, 1, policy)).toEqual({ status: 'queued', retryInMs: 1_000 });
      expect(afterFailure({ permanent: false }, 2, policy)).toEqual({ status: 'queued', retryInMs: 2_000 });
    });

    it('fails it when the attempt was the last one allowed', () => {
      expect(afterFailure({ permanent: false }, 3, policy)).toEqual({ status: 'failed' });
      expect(afterFailure({ permanent: false }, 4, policy)).toEqual({ status: 'failed' });
    });

    it('fails a permanent refusal at once', () => {
      expect(afterFailure({ permanent: true }, 1, policy)).toEqual({ status: 'failed' });
    });
  });

  describe('lanes', () => {
    it("puts a price-sensitive announcement's send in the priority lane and its batches on the priority topic", () => {
      expect(laneOf({ priceSensitive: true })).toBe('priority');
      expect(laneOf({ priceSensitive: false })).toBe('routine');
      expect(batchTopicOf('priority')).toBe(Topics.EmailPriorityDeliveriesQueued);
      expect(batchTopicOf('routine')).toBe(Topics.EmailDeliveriesQueued);
    });
  });
});
