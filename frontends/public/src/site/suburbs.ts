/**
 * The 42 suburbs of the landing page's Areas section (packages/reference-data, the list the booking service seeds
 * too): these pages are prerendered at build time, so the site carries the list itself; any other suburb we serve is
 * looked up at run time (GET /api/suburbs/mobile-tyres-{suburb}).
 */
import { LANDING_SUBURBS, type Region, type Suburb } from '@tyres/reference-data';

export { LANDING_SUBURBS, type Region, type Suburb };

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
