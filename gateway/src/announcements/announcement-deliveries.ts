import {
  ANNOUNCEMENT_PAGE_MAX,
  Announcement,
  AnnouncementDeliveryState,
  NOT_DELIVERED,
  SendHistoryReply,
  StoredAnnouncement,
  Topics,
} from '@irp/proto';
import { createLogger } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import { askContributor } from '../common/contributors';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { ServicesClient } from '../kafka/services.client';

const log = createLogger('announcement-deliveries');

/** The service that owns who was mailed (docs/adr/0013): named in `unavailable` when it does not answer. */
export const SEND_HISTORY_CONTRIBUTOR = { name: 'email-marketing' } as const;

/** Announcements with their delivery state, and the services that did not answer (their part is blank). */
export interface DeliveredAnnouncements {
  announcements: Announcement[];
  unavailable: string[];
}

/**
 * Each stored announcement with who was mailed it, from the email-marketing service's send history; one not
 * in the history was never mailed (NOT_DELIVERED). Pure: the composition every answer shares.
 */
export function withDeliveryState(
  stored: readonly StoredAnnouncement[],
  history: SendHistoryReply['announcements'],
): Announcement[] {
  const bySendGuid = new Map<string, AnnouncementDeliveryState>(
    history.map(({ sendGuid, ...state }) => [sendGuid, state]),
  );
  return stored.map((a) => ({ ...a, ...(bySendGuid.get(a.sendGuid) ?? NOT_DELIVERED) }));
}

/**
 * Composes the email-marketing service's part of every announcement the gateway answers (docs/adr/0013): the
 * announcements service stores the announcement, the email-marketing service who was mailed it, and neither
 * copies the other's. Asked within STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS like the stock page's other parts; when
 * the email-marketing service fails or is slower, the announcements still answer, shown as not mailed, with
 * 'email-marketing' in `unavailable` (so a screen can say the sent state is unknown). Never rejects.
 */
@Injectable()
export class AnnouncementDeliveries {
  constructor(
    private readonly services: ServicesClient,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS'>,
  ) {}

  /** Announcements of one stock (a page of its list, or all), each with its delivery state. */
  async of(stored: readonly StoredAnnouncement[]): Promise<DeliveredAnnouncements> {
    if (!stored.length) return { announcements: [], unavailable: [] };
    const stockId = stored[0].stockId;
    // Just these announcements' history (a page: ANNOUNCEMENT_PAGE_MAX at most); the whole stock's (one index
    // range) only for a longer list.
    const sendGuids = stored.length > ANNOUNCEMENT_PAGE_MAX ? undefined : stored.map((a) => a.sendGuid);
    const result = await askContributor(
      SEND_HISTORY_CONTRIBUTOR,
      (_, deadlineMs) =>
        this.services.request(Topics.EmailMarketingSendHistory, { stockId, sendGuids }, deadlineMs),
      {
        deadlineMs: this.config.STOCK_PAGE_CONTRIBUTOR_TIMEOUT_MS,
        log,
        message: 'send history unavailable',
        context: { stockId, announcements: stored.length },
      },
    );
    if (!result.ok)
      return { announcements: withDeliveryState(stored, []), unavailable: [SEND_HISTORY_CONTRIBUTOR.name] };
    return { announcements: withDeliveryState(stored, result.value.announcements), unavailable: [] };
  }

  /** One announcement with its delivery state, and who did not answer. */
  async one(stored: StoredAnnouncement): Promise<{ announcement: Announcement; unavailable: string[] }> {
    const { announcements, unavailable } = await this.of([stored]);
    return { announcement: announcements[0], unavailable };
  }
}
