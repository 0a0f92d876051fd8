import type { AdminStockPage, ClientStockDto, SessionUserDto, Stock } from '@irp/proto';
import { createTabRegistry, type TabDefinition } from './registry';

type SessionUser = SessionUserDto | null | undefined;

/** What a staff stock page tab's role check sees. */
export interface StaffStockTabAccess {
  user: SessionUser;
}

/**
 * The stock as GET /api/stock/{combinedTicker} answers on the staff page: an admin gets the composed page
 * (the stock plus its announcements and initial poll, null when that service did not answer); a
 * report-runner's summary has none of those, hence optional. Both carry completedInitialPoll, which the
 * gateway composes from the announcements service's latest initial poll.
 */
export type StaffStock = Stock &
  Pick<AdminStockPage, 'completedInitialPoll'> &
  Partial<
    Pick<
      AdminStockPage,
      'announcements' | 'announcementsNext' | 'initialPoll' | 'unavailable' | 'currentMarketData'
    >
  >;

/** What a staff stock page tab is given: the stock as last fetched (the page refetches it after saves). */
export interface StaffStockTabProps {
  stock: StaffStock;
  /**
   * Changes the page's copy of the stock without a request (spec section 4: a resync sets
   * completedInitialPoll back to false locally); the page's next fetch replaces it. Absent where a tab is
   * shown outside the stock page.
   */
  patchStock?: (patch: Partial<StaffStock>) => void;
}

/** What a client stock page tab's role check sees. */
export interface ClientStockTabAccess {
  user: SessionUser;
  /** The user's roles on this stock (ClientStockDto.roles, from stockRoles by the stock's id). */
  roles: readonly string[];
}

export interface ClientStockTabProps {
  stock: ClientStockDto;
}

export type StaffStockTab = TabDefinition<StaffStockTabAccess, StaffStockTabProps>;
export type ClientStockTab = TabDefinition<ClientStockTabAccess, ClientStockTabProps>;

/** The tabs of /stocks/{ticker:exchange}/{tab}; the key is the URL's fourth segment. */
export const staffStockTabs = createTabRegistry<StaffStockTabAccess, StaffStockTabProps>('staff stock page');

/** The tabs of /client-stocks/{combinedTicker}?tab={key}. */
export const clientStockTabs = createTabRegistry<ClientStockTabAccess, ClientStockTabProps>(
  'client stock page',
);
