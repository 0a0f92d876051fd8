import { isKeptApiKey, SealContext } from '@irp/proto';
import { SealedInbox } from '@irp/platform';

/**
 * A provider API key as it came over the bus (issue 34): blank or the mask (the stored key) as they are,
 * anything else opened with this service's SEAL_PRIVATE_KEY (the gateway sealed it for this service alone).
 */
export const openedProviderKey = (inbox: SealedInbox, typed: string): string =>
  isKeptApiKey(typed) ? typed : inbox.open(typed, SealContext.ProviderKey);
