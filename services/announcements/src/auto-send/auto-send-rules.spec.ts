import { decideAutoSend, heldBackMessage, type AutoSendFacts } from './auto-send-rules';

const off = {
  sendPriceSensitiveAnnouncements: false,
  sendNonPriceSensitiveAnnouncements: false,
  autoSendAnnouncementEmail: false,
  autoSendNonPriceSensitiveAnnouncements: false,
};
const facts = (over: Partial<AutoSendFacts> = {}): AutoSendFacts => ({
  origin: 'poll',
  priceSensitive: true,
  switches: { ...off, sendPriceSensitiveAnnouncements: true },
  matchesFilter: false,
  sentLastHour: 0,
  sentLastDay: 0,
  hourlyLimit: 10,
  dailyLimit: 30,
  releasedAt: new Date('2026-11-23T00:00:00Z'),
  detectedAt: new Date('2026-11-23T00:00:20Z'),
  maxAgeMs: 24 * 3_600_000,
  ...over,
});

describe('automatic send decisions', () => {
  it('sends a polled announcement to the channels its stock’s switches choose', () => {
    expect(decideAutoSend(facts())).toEqual({ state: 'requested', channels: ['email'] });
    expect(decideAutoSend(facts({ switches: { ...off, autoSendAnnouncementEmail: true } }))).toEqual({
      state: 'requested',
      channels: ['email-marketing'],
    });
    expect(
      decideAutoSend(
        facts({
          priceSensitive: false,
          switches: {
            ...off,
            sendNonPriceSensitiveAnnouncements: true,
            autoSendNonPriceSensitiveAnnouncements: true,
          },
        }),
      ),
    ).toEqual({ state: 'requested', channels: ['email', 'email-marketing'] });
  });

  it('never sends what an initial poll, resync, reconcile or a person added', () => {
    for (const origin of ['initial-poll', 'reconcile', 'manual'] as const)
      expect(decideAutoSend(facts({ origin })).state).toBe('not-automatic');
  });

  it('never mails old news: found more than a day after its release is stale, a day or less is sent', () => {
    const released = new Date('2026-11-20T00:00:00Z');
    expect(
      decideAutoSend(facts({ releasedAt: released, detectedAt: new Date('2026-11-21T00:00:01Z') })).state,
    ).toBe('stale');
    expect(
      decideAutoSend(facts({ releasedAt: released, detectedAt: new Date('2026-11-21T00:00:00Z') })).state,
    ).toBe('requested');
  });

  it('marks no-channel when no switch is on for the kind', () => {
    expect(decideAutoSend(facts({ priceSensitive: false })).state).toBe('no-channel');
  });

  it('holds back a headline matching the filter but sends one that does not', () => {
    expect(decideAutoSend(facts({ matchesFilter: true })).state).toBe('filtered');
    expect(decideAutoSend(facts({ matchesFilter: false })).state).toBe('requested');
  });

  it('holds back at or over the hourly limit, then the daily limit', () => {
    expect(decideAutoSend(facts({ sentLastHour: 9, sentLastDay: 9 })).state).toBe('requested');
    expect(decideAutoSend(facts({ sentLastHour: 10, sentLastDay: 10 })).state).toBe('held-hourly');
    expect(decideAutoSend(facts({ sentLastHour: 2, sentLastDay: 30 })).state).toBe('held-daily');
    expect(decideAutoSend(facts({ hourlyLimit: 0 })).state).toBe('held-hourly');
  });

  it('says which limit held what back', () => {
    expect(heldBackMessage('BHP', 'Quarterly Activities Report', 'held-hourly', 10)).toBe(
      'BHP: automatic send of "Quarterly Activities Report" held back: hourly limit of 10 reached',
    );
    expect(heldBackMessage('BHP', 'X', 'held-daily', 30)).toBe(
      'BHP: automatic send of "X" held back: daily limit of 30 reached',
    );
  });
});
