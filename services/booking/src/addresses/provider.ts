/**
 * Address suggestions behind one interface: Google Places (New) when GOOGLE_PLACES_API_KEY is set, the offline
 * gazetteer otherwise (and as the fallback whenever Google fails, so the field never just goes quiet).
 */
import type { Logger } from '@tyres/service-kit';
import { offlineSuggestions, type AddressSuggestion, type Locality } from '../domain/addresses';
import { ADDRESS_MAX_SUGGESTIONS, ADDRESS_MIN_CHARS } from '../domain/constants';

export interface AddressProvider {
  readonly name: string;
  /** At most `limit` Australian addresses for a 3+ character query. */
  suggest(query: string, options?: { limit?: number; sessionToken?: string }): Promise<AddressSuggestion[]>;
}

export class OfflineAddressProvider implements AddressProvider {
  readonly name = 'offline';
  constructor(private readonly gazetteer: () => Promise<readonly Locality[]>) {}

  async suggest(query: string, options: { limit?: number } = {}): Promise<AddressSuggestion[]> {
    if (query.trim().length < ADDRESS_MIN_CHARS) return [];
    return offlineSuggestions(query, await this.gazetteer(), options.limit ?? ADDRESS_MAX_SUGGESTIONS);
  }
}

/** Tries the primary provider, falls back to the secondary (logged) on any failure. */
export class FallbackAddressProvider implements AddressProvider {
  readonly name: string;
  constructor(
    private readonly primary: AddressProvider,
    private readonly fallback: AddressProvider,
    private readonly logger: Logger,
  ) {
    this.name = `${primary.name}+${fallback.name}`;
  }

  async suggest(
    query: string,
    options?: { limit?: number; sessionToken?: string },
  ): Promise<AddressSuggestion[]> {
    try {
      return await this.primary.suggest(query, options);
    } catch (err) {
      this.logger.warn(
        { err: err instanceof Error ? err.message : String(err), provider: this.primary.name },
        'address provider failed; using fallback',
      );
      return this.fallback.suggest(query, options);
    }
  }
}
