import { GooglePlacesProvider } from './google-places';
import { FallbackAddressProvider, OfflineAddressProvider } from './provider';
import { GAZETTEER } from '../domain/reference/gazetteer';

type Call = { url: string; init: RequestInit };

function fakeFetch(routes: (url: string) => unknown): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fn = (async (url: string | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const body = routes(String(url));
    if (body instanceof Error) return new Response('nope', { status: 500 });
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
  return { fetch: fn, calls };
}

const prediction = (placeId: string, main: string, secondary: string) => ({
  placePrediction: {
    placeId,
    text: { text: `${main}, ${secondary}` },
    structuredFormat: { mainText: { text: main }, secondaryText: { text: secondary } },
  },
});

describe('GooglePlacesProvider', () => {
  it('asks for Australian addresses and fills postcodes from the gazetteer, else from place details', async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url.includes(':autocomplete')
        ? {
            suggestions: [
              prediction('a', '12 Smith St', 'Mandurah WA, Australia'),
              prediction('b', '5 Hay St', 'Unknownville WA, Australia'),
              prediction('c', '1 George St', 'Sydney NSW, Australia'),
            ],
          }
        : url.includes('/places/b')
          ? {
              addressComponents: [
                { longText: '6999', types: ['postal_code'] },
                { longText: 'Unknownville', types: ['locality'] },
              ],
            }
          : {
              addressComponents: [
                { longText: '2000', types: ['postal_code'] },
                { longText: 'Sydney', types: ['locality'] },
              ],
            },
    );
    const provider = new GooglePlacesProvider({
      apiKey: 'test-key-123456',
      timeoutMs: 1000,
      gazetteer: async () => GAZETTEER,
      fetch,
    });
    const result = await provider.suggest('12 smith', { sessionToken: 'sess-1' });
    expect(result).toEqual([
      {
        streetAddress: '12 Smith St',
        fullAddress: '12 Smith St, Mandurah WA 6210',
        suburb: 'Mandurah',
        postcode: '6210',
      },
      {
        streetAddress: '5 Hay St',
        fullAddress: '5 Hay St, Unknownville WA 6999',
        suburb: 'Unknownville',
        postcode: '6999',
      },
      {
        streetAddress: '1 George St',
        fullAddress: '1 George St, Sydney NSW 2000',
        suburb: 'Sydney',
        postcode: '2000',
      },
    ]);
    const body = JSON.parse(String(calls[0]!.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ input: '12 smith', includedRegionCodes: ['au'], sessionToken: 'sess-1' });
    expect((calls[0]!.init.headers as Record<string, string>)['X-Goog-Api-Key']).toBe('test-key-123456');
    expect(calls.filter((c) => c.url.includes('/places/a'))).toHaveLength(0);
  });

  it('falls back to the offline gazetteer when Google fails', async () => {
    const { fetch } = fakeFetch(() => new Error('down'));
    const google = new GooglePlacesProvider({
      apiKey: 'test-key-123456',
      timeoutMs: 1000,
      gazetteer: async () => GAZETTEER,
      fetch,
    });
    const logger = { warn: jest.fn() } as unknown as ConstructorParameters<typeof FallbackAddressProvider>[2];
    const provider = new FallbackAddressProvider(
      google,
      new OfflineAddressProvider(async () => GAZETTEER),
      logger,
    );
    expect(await provider.suggest('12 Smith St, Mandurah')).toEqual([
      {
        streetAddress: '12 Smith St',
        fullAddress: '12 Smith St, Mandurah WA 6210',
        suburb: 'Mandurah',
        postcode: '6210',
      },
    ]);
    expect((logger as unknown as { warn: jest.Mock }).warn).toHaveBeenCalled();
  });

  it('does not call Google for fewer than 3 characters', async () => {
    const { fetch, calls } = fakeFetch(() => ({}));
    const provider = new GooglePlacesProvider({
      apiKey: 'test-key-123456',
      timeoutMs: 1000,
      gazetteer: async () => GAZETTEER,
      fetch,
    });
    expect(await provider.suggest('12')).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});
