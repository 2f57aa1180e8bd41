/**
 * The 42 suburbs of the landing page's Areas section, by region, in display order, with their postcodes.
 * Same list as the booking service's seed (services/booking/src/domain/reference/landing-suburbs.ts): these
 * pages are prerendered at build time, so the site carries the list itself; any other suburb we serve is
 * looked up at run time (GET /api/suburbs/mobile-tyres-{suburb}).
 */
export type Region = 'Perth Metro' | 'Peel Region' | 'Hills & Extended';

export interface Suburb {
  name: string;
  postcode: string;
  region: Region;
}

const group = (region: Region, rows: [string, string][]): Suburb[] =>
  rows.map(([name, postcode]) => ({ name, postcode, region }));

export const LANDING_SUBURBS: readonly Suburb[] = [
  ...group('Perth Metro', [
    ['Perth', '6000'],
    ['Fremantle', '6160'],
    ['Joondalup', '6027'],
    ['Scarborough', '6019'],
    ['Subiaco', '6008'],
    ['Morley', '6062'],
    ['Midland', '6056'],
    ['Cannington', '6107'],
    ['Armadale', '6112'],
    ['Rockingham', '6168'],
    ['Baldivis', '6171'],
    ['Ellenbrook', '6069'],
    ['Canning Vale', '6155'],
    ['Osborne Park', '6017'],
    ['Wanneroo', '6065'],
    ['Clarkson', '6030'],
    ['Butler', '6036'],
    ['Cockburn Central', '6164'],
    ['Success', '6164'],
    ['Victoria Park', '6100'],
    ['Belmont', '6104'],
    ['Malaga', '6090'],
    ['Thornlie', '6108'],
    ['Willetton', '6155'],
  ]),
  ...group('Peel Region', [
    ['Mandurah', '6210'],
    ['Halls Head', '6210'],
    ['Falcon', '6210'],
    ['Dawesville', '6211'],
    ['Meadow Springs', '6210'],
    ['Lakelands', '6180'],
    ['Pinjarra', '6208'],
    ['Greenfields', '6210'],
    ['Erskine', '6210'],
    ['South Yunderup', '6208'],
  ]),
  ...group('Hills & Extended', [
    ['Kalamunda', '6076'],
    ['Mundaring', '6073'],
    ['Lesmurdie', '6076'],
    ['Roleystone', '6111'],
    ['Byford', '6122'],
    ['Mount Helena', '6082'],
    ['Gidgegannup', '6083'],
    ['Bullsbrook', '6084'],
  ]),
];

export const REGIONS: readonly Region[] = ['Perth Metro', 'Peel Region', 'Hills & Extended'];

/** Spec section 2: the landing page links to /suburb/{name}, lowercased with the first space replaced by a hyphen. */
export function suburbLinkName(name: string): string {
  return name.toLowerCase().replace(' ', '-');
}

export function suburbPath(name: string): string {
  return `/suburb/${suburbLinkName(name)}`;
}

/** Canonical page of a suburb: the slug is mobile-tyres-{suburb} (spec section 2). */
export function suburbSlug(name: string): string {
  return `mobile-tyres-${slugName(name)}`;
}

/** "Halls Head" / "halls-head" / "Halls%20Head" -> "halls-head" (the booking service's normalisation). */
export function slugName(value: string): string {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // keep as is
  }
  return decoded
    .trim()
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function findLandingSuburb(nameOrSlug: string): Suburb | undefined {
  const wanted = slugName(nameOrSlug);
  return LANDING_SUBURBS.find((suburb) => slugName(suburb.name) === wanted);
}
