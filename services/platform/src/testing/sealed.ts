import { SealContext } from '@irp/proto';
import { DEV_SEAL_KEYS, sealFor } from '../secrets/sealed-box';

/**
 * Secrets as the gateway puts them on the bus (issue 34), for specs that ask a service directly: a password
 * sealed for the users service, a provider API key for the email-marketing service (the development pairs).
 */
export const sealedPassword = (password: string): string =>
  sealFor(DEV_SEAL_KEYS.users.publicKey, SealContext.Password, password);

export const sealedProviderKey = (key: string): string =>
  sealFor(DEV_SEAL_KEYS['email-marketing'].publicKey, SealContext.ProviderKey, key);
