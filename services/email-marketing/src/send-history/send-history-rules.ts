// What email-marketing answers of who was mailed an announcement, without I/O: the history entries of its
// sends (SendsRepository.history) grouped into each announcement's delivery state.

import type { SendHistoryReply } from '@irp/proto';
import type { SendHistoryEntry } from '../sending/sends.repository';

/**
 * Each announcement with any entry, its entries in the rows' order (oldest first): `sent` once anything was
 * accepted, the latency its rows carry. An announcement without rows is no entry: never mailed.
 */
export function deliveryStates(rows: readonly SendHistoryEntry[]): SendHistoryReply['announcements'] {
  const states = new Map<string, SendHistoryReply['announcements'][number]>();
  for (const row of rows) {
    let state = states.get(row.sendGuid);
    if (!state) {
      state = { sendGuid: row.sendGuid, sent: true, sendHistory: [], alertLatencyMs: row.alertLatencyMs };
      states.set(row.sendGuid, state);
    }
    state.sendHistory.push({ timestamp: row.acceptedAt.toISOString(), emailAddress: row.email });
  }
  return [...states.values()];
}
