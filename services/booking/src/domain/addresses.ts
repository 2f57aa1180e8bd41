/**
 * Address suggestions (spec: "Address autocomplete result: streetAddress, fullAddress, suburb, postcode";
 * Australia only, 3+ characters, 5 shown). Pure parsing and gazetteer matching for the offline provider.
 */
import { ADDRESS_MAX_SUGGESTIONS, ADDRESS_MIN_CHARS } from './constants';
import { slugName } from './suburbs';

export interface AddressSuggestion {
  streetAddress: string;
  fullAddress: string;
  suburb: string;
  postcode: string;
}

export interface Locality {
  name: string;
  postcode: string;
  region: string;
}

export const STATE = 'WA';

export function fullAddress(street: string, suburb: string, postcode: string, state: string = STATE): string {
  return street ? `${street}, ${suburb} ${state} ${postcode}` : `${suburb} ${state} ${postcode}`;
}

/** "12 smith st" -> "12 Smith St" (unit prefixes like "3/12" kept). */
export function tidyStreet(street: string): string {
  return street
    .trim()
    .replace(/\s+/g, ' ')
    .replace(
      /\b([a-z])([a-z']*)/gi,
      (_m, first: string, rest: string) => first.toUpperCase() + rest.toLowerCase(),
    );
}

const NOISE = /\b(western australia|australia|wa)\b/gi;
/** Street types: "12 Smith St" must not read as the suburb "St James". */
const STREET_TYPES = new Set(
  'st street rd road ave avenue dr drive cres crescent pl place ct court way hwy highway pde parade tce terrace blvd boulevard ln lane cl close cct circuit gr grove loop mews rise vista view esp esplanade retreat link gdns gardens sq square bvd'.split(
    ' ',
  ),
);

interface LocalityQuery {
  words: string;
  postcode?: string;
}

function localityQuery(text: string): LocalityQuery | undefined {
  const postcode = /\b(6\d{3})\b/.exec(text)?.[1];
  const words = slugName(text.replace(NOISE, ' ').replace(/\b\d{4}\b/g, ' '));
  if (!words && !postcode) return undefined;
  return { words, ...(postcode ? { postcode } : {}) };
}

function matchLocalities(
  q: LocalityQuery,
  gazetteer: readonly Locality[],
  opts: { prefixOnly: boolean },
): Locality[] {
  const scored: { l: Locality; score: number }[] = [];
  for (const l of gazetteer) {
    if (q.postcode && l.postcode !== q.postcode) continue;
    const name = slugName(l.name);
    let score: number;
    if (!q.words) score = 1;
    else if (name === q.words) score = 3;
    else if (name.startsWith(q.words)) score = 2;
    else if (!opts.prefixOnly && q.words.length >= 3 && name.includes(q.words)) score = 1;
    else continue;
    scored.push({ l, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.l.name.localeCompare(b.l.name)).map((s) => s.l);
}

/**
 * Offline suggestions over the gazetteer:
 *  - "12 Smith St, Mandurah" / "12 Smith St, Mandurah WA 6210": street + matching suburbs;
 *  - "12 smith st mandu": the trailing words that start a suburb name are the suburb;
 *  - "mandurah" / "6210": the matching suburbs themselves (streetAddress empty).
 */
export function offlineSuggestions(
  query: string,
  gazetteer: readonly Locality[],
  limit = ADDRESS_MAX_SUGGESTIONS,
): AddressSuggestion[] {
  const q = query.replace(/\s+/g, ' ').trim();
  if (q.length < ADDRESS_MIN_CHARS) return [];
  const toSuggestion = (street: string) => (l: Locality) => ({
    streetAddress: street,
    fullAddress: fullAddress(street, l.name, l.postcode),
    suburb: l.name,
    postcode: l.postcode,
  });

  const comma = q.indexOf(',');
  if (comma >= 0) {
    const street = tidyStreet(q.slice(0, comma));
    const locality = localityQuery(q.slice(comma + 1));
    if (!locality) return [];
    return matchLocalities(locality, gazetteer, { prefixOnly: false })
      .slice(0, limit)
      .map(toSuggestion(street));
  }

  // No comma: the whole text may be a suburb or postcode...
  const whole = localityQuery(q);
  const startsWithNumber = /^\d+[a-z]?(\/\d+)?\s/i.test(q);
  if (whole && !startsWithNumber) {
    const found = matchLocalities(whole, gazetteer, { prefixOnly: false });
    if (found.length > 0) return found.slice(0, limit).map(toSuggestion(''));
  }
  // ...or "street suburb": try the longest trailing run of words (up to 3) that begins a suburb name.
  const words = q.split(' ');
  for (let n = Math.min(3, words.length - 1); n >= 1; n--) {
    const tail = words.slice(words.length - n).join(' ');
    const head = words.slice(0, words.length - n).join(' ');
    const locality = localityQuery(tail);
    const firstTailWord = words[words.length - n]!.toLowerCase().replace(/[^a-z]/g, '');
    if (!locality || locality.words.length < 3 || STREET_TYPES.has(firstTailWord) || !/[a-z]/i.test(head))
      continue;
    const found = matchLocalities(locality, gazetteer, { prefixOnly: true });
    if (found.length > 0) return found.slice(0, limit).map(toSuggestion(tidyStreet(head)));
  }
  return [];
}
