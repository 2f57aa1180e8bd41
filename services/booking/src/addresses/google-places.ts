/**
 * Google Places API (New): Autocomplete restricted to Australia and to address-like results, biased to Perth and
 * Peel. Autocomplete gives "12 Smith St" + "Mandurah WA, Australia"; the postcode comes from our gazetteer when the
 * suburb is one we serve, else from Place Details (addressComponents) for that one result.
 */
import type { AddressProvider } from './provider';
import { fullAddress, type AddressSuggestion, type Locality } from '../domain/addresses';
import { ADDRESS_MAX_SUGGESTIONS, ADDRESS_MIN_CHARS } from '../domain/constants';
import { slugName } from '../domain/suburbs';

const AUTOCOMPLETE_URL = 'https://places.googleapis.com/v1/places:autocomplete';
const DETAILS_URL = 'https://places.googleapis.com/v1/places/';
/** Roughly between Perth CBD and Mandurah; 100 km covers Two Rocks to Waroona. */
const PERTH_PEEL_BIAS = { circle: { center: { latitude: -32.1, longitude: 115.85 }, radius: 100_000 } };

interface Prediction {
  placeId?: string;
  text?: { text?: string };
  structuredFormat?: { mainText?: { text?: string }; secondaryText?: { text?: string } };
}
interface AutocompleteResponse {
  suggestions?: { placePrediction?: Prediction }[];
}
interface DetailsResponse {
  addressComponents?: { longText?: string; shortText?: string; types?: string[] }[];
}

export interface GooglePlacesOptions {
  apiKey: string;
  timeoutMs: number;
  gazetteer: () => Promise<readonly Locality[]>;
  fetch?: typeof fetch;
}

export class GooglePlacesProvider implements AddressProvider {
  readonly name = 'google-places';
  private readonly http: typeof fetch;

  constructor(private readonly options: GooglePlacesOptions) {
    this.http = options.fetch ?? fetch;
  }

  private async call<T>(url: string, init: RequestInit, fieldMask?: string): Promise<T> {
    const res = await this.http(url, {
      ...init,
      headers: {
        'Content-Type': 'application/json',
        'X-Goog-Api-Key': this.options.apiKey,
        ...(fieldMask ? { 'X-Goog-FieldMask': fieldMask } : {}),
      },
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (!res.ok) throw new Error(`Google Places answered ${res.status}`);
    return (await res.json()) as T;
  }

  async suggest(
    query: string,
    options: { limit?: number; sessionToken?: string } = {},
  ): Promise<AddressSuggestion[]> {
    const input = query.trim();
    if (input.length < ADDRESS_MIN_CHARS) return [];
    const limit = options.limit ?? ADDRESS_MAX_SUGGESTIONS;
    const body = {
      input,
      includedRegionCodes: ['au'],
      includedPrimaryTypes: ['street_address', 'premise', 'subpremise', 'route'],
      locationBias: PERTH_PEEL_BIAS,
      languageCode: 'en-AU',
      ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}),
    };
    const data = await this.call<AutocompleteResponse>(AUTOCOMPLETE_URL, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    const predictions = (data.suggestions ?? [])
      .map((s) => s.placePrediction)
      .filter((p): p is Prediction => Boolean(p));
    const gazetteer = await this.options.gazetteer();
    const out: AddressSuggestion[] = [];
    for (const p of predictions) {
      if (out.length >= limit) break;
      const street = p.structuredFormat?.mainText?.text?.trim() ?? '';
      const secondary = p.structuredFormat?.secondaryText?.text ?? '';
      // "Mandurah WA, Australia" -> "Mandurah", "WA"
      const locality = /^(.*?)(?:\s+(WA|NSW|VIC|QLD|SA|TAS|NT|ACT))?$/i.exec(
        secondary.split(',')[0]?.trim() ?? '',
      );
      const suburbName = locality?.[1]?.trim() ?? '';
      const state = (locality?.[2] ?? 'WA').toUpperCase();
      let suburb = suburbName;
      let postcode =
        state === 'WA'
          ? gazetteer.find((l) => slugName(l.name) === slugName(suburbName))?.postcode
          : undefined;
      if (!postcode && p.placeId) {
        const details = await this.call<DetailsResponse>(
          `${DETAILS_URL}${encodeURIComponent(p.placeId)}${options.sessionToken ? `?sessionToken=${encodeURIComponent(options.sessionToken)}` : ''}`,
          { method: 'GET' },
          'addressComponents',
        );
        const component = (type: string) => details.addressComponents?.find((c) => c.types?.includes(type));
        postcode = component('postal_code')?.longText;
        suburb = component('locality')?.longText ?? suburb;
      }
      if (!street || !suburb || !postcode) continue;
      out.push({
        streetAddress: street,
        fullAddress: fullAddress(street, suburb, postcode, state),
        suburb,
        postcode,
      });
    }
    return out;
  }
}
