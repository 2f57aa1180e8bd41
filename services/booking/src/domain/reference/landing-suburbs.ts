import { LANDING_SUBURBS as SHARED } from '@tyres/reference-data';
import type { Region } from './gazetteer';

/**
 * The 42 suburbs linked from the landing page's Areas section, by region, in display order: the list shared with the
 * public site (packages/reference-data), in the seed's shape. Postcodes are the gazetteer's.
 */
export const LANDING_SUBURBS: readonly { suburb: string; postcode: string; region: Region }[] = SHARED.map(
  (s) => ({
    suburb: s.name,
    postcode: s.postcode,
    region: s.region,
  }),
);
