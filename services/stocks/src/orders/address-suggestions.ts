import { AddressSuggestions as Suggestions, MIN_ADDRESS_QUERY } from '@irp/proto';
import { createLogger, SERVICE_CONFIG } from '@irp/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { StocksConfig } from '../config';
import { PlacesClient } from './places-client';

const log = createLogger('address-suggestions');

/**
 * The order form's billing address autocomplete. With no address service configured (or while it
 * fails) it answers `available: false`, and the form keeps a plain field: an order never waits on it.
 */
@Injectable()
export class AddressSuggestions {
  private readonly places: PlacesClient | null;

  constructor(@Inject(SERVICE_CONFIG) config: Pick<StocksConfig, 'PLACES_BASE_URL' | 'PLACES_API_KEY'>) {
    this.places =
      config.PLACES_BASE_URL && config.PLACES_API_KEY
        ? new PlacesClient(config.PLACES_BASE_URL, config.PLACES_API_KEY)
        : null;
  }

  async suggest(q: string, sessionToken?: string): Promise<Suggestions> {
    if (!this.places) return { available: false, suggestions: [] };
    const input = q.trim();
    if (input.length < MIN_ADDRESS_QUERY) return { available: true, suggestions: [] };
    try {
      return { available: true, suggestions: await this.places.autocomplete(input, sessionToken) };
    } catch (err) {
      log.warn({ err }, 'address suggestions unavailable');
      return { available: false, suggestions: [] };
    }
  }
}
