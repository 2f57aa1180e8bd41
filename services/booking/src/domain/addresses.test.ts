import { offlineSuggestions, tidyStreet } from './addresses';
import { GAZETTEER } from './reference/gazetteer';
import { requestedSlugName, slugName, landingSlug } from './suburbs';

describe('offline address suggestions', () => {
  it('needs 3+ characters and returns at most 5', () => {
    expect(offlineSuggestions('ma', GAZETTEER)).toEqual([]);
    expect(offlineSuggestions('12 Smith St, 6210', GAZETTEER)).toHaveLength(5);
  });

  it('parses "street, suburb" free text', () => {
    expect(offlineSuggestions('12 smith st, mandurah', GAZETTEER)).toEqual([
      {
        streetAddress: '12 Smith St',
        fullAddress: '12 Smith St, Mandurah WA 6210',
        suburb: 'Mandurah',
        postcode: '6210',
      },
    ]);
    expect(offlineSuggestions('3/45 Ocean Rd, Halls Head WA 6210', GAZETTEER)[0]).toEqual({
      streetAddress: '3/45 Ocean Rd',
      fullAddress: '3/45 Ocean Rd, Halls Head WA 6210',
      suburb: 'Halls Head',
      postcode: '6210',
    });
  });

  it('finds the suburb at the end without a comma', () => {
    const [first] = offlineSuggestions('7 Beach Rd Secret Harb', GAZETTEER);
    expect(first).toEqual({
      streetAddress: '7 Beach Rd',
      fullAddress: '7 Beach Rd, Secret Harbour WA 6173',
      suburb: 'Secret Harbour',
      postcode: '6173',
    });
  });

  it('matches suburbs and postcodes on their own', () => {
    expect(offlineSuggestions('Baldivis', GAZETTEER)).toEqual([
      { streetAddress: '', fullAddress: 'Baldivis WA 6171', suburb: 'Baldivis', postcode: '6171' },
    ]);
    expect(offlineSuggestions('6208', GAZETTEER).map((s) => s.suburb)).toEqual([
      'Blythewood',
      'Fairbridge',
      'Meelon',
      'Nirimba',
      'North Yunderup',
    ]);
  });

  it('returns nothing for a street without a suburb it knows', () => {
    expect(offlineSuggestions('12 Smith St', GAZETTEER)).toEqual([]);
    expect(offlineSuggestions('1 George St, Sydney', GAZETTEER)).toEqual([]);
  });

  it('tidies the street', () => expect(tidyStreet('  12   SMITH st ')).toBe('12 Smith St'));
});

describe('suburb slugs', () => {
  it('builds and reads mobile-tyres-{suburb}', () => {
    expect(slugName("O'Connor")).toBe('oconnor');
    expect(landingSlug('Halls Head')).toBe('mobile-tyres-halls-head');
    expect(requestedSlugName('mobile-tyres-halls-head')).toBe('halls-head');
    expect(requestedSlugName('mobile-tyres-Halls%20Head')).toBe('halls-head');
    // The landing page's links replace only the first space: "kwinana-town centre".
    expect(requestedSlugName('mobile-tyres-kwinana-town%20centre')).toBe('kwinana-town-centre');
    expect(requestedSlugName('halls-head')).toBeUndefined();
    expect(requestedSlugName('mobile-tyres-')).toBeUndefined();
  });
});
