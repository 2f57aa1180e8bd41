/** Suburb landing pages (spec: /mobile-tyres-{suburb}) and the gazetteer helpers. */
import { SERVICE_LABELS } from '@tyres/kernel';
import { RESPONSE_TIME } from './constants';

export const SLUG_PREFIX = 'mobile-tyres-';

/** "Halls Head" -> "halls-head". */
export const slugName = (suburb: string) =>
  suburb
    .trim()
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

export const landingSlug = (suburb: string) => `${SLUG_PREFIX}${slugName(suburb)}`;

/**
 * The suburb part of a requested slug, normalised: "mobile-tyres-Halls%20Head", "mobile-tyres-halls-head" and the
 * landing page's "first space replaced by a hyphen" links all give "halls-head". Undefined without the prefix.
 */
export function requestedSlugName(param: string): string | undefined {
  let value = param;
  try {
    value = decodeURIComponent(param);
  } catch {
    // keep as is
  }
  value = value.trim().toLowerCase();
  if (!value.startsWith(SLUG_PREFIX)) return undefined;
  const name = slugName(value.slice(SLUG_PREFIX.length));
  return name || undefined;
}

export interface SuburbPage {
  suburb: string;
  postcode: string;
  region: string;
  slug: string;
  metaTitle: string;
  metaDescription: string;
  content: string;
  responseTime: string;
}

/** SEO copy for a suburb (seeded for the landing suburbs, generated on the fly for other served suburbs). */
export function suburbPageCopy(
  suburb: string,
  postcode: string,
  region: string,
): Omit<SuburbPage, 'responseTime'> {
  const services = Object.values(SERVICE_LABELS).join(', ').toLowerCase();
  return {
    suburb,
    postcode,
    region,
    slug: landingSlug(suburb),
    metaTitle: `Mobile Tyres ${suburb} WA ${postcode} | Tyre Fitting & Puncture Repair`,
    metaDescription: `Mobile tyre fitting, puncture repair and battery service in ${suburb} WA ${postcode}. We come to you, Monday to Friday 8am-4pm, usually within ${RESPONSE_TIME}. Book online and save $30.`,
    content:
      `Need tyres in ${suburb}? Our mobile technicians come to your home, workplace or the roadside anywhere in ${suburb} (${postcode}) ` +
      `and across ${region}, with professional equipment to fit and balance new tyres on the spot. ` +
      `We offer ${services}, with a 12-month warranty on fitting and puncture repairs. ` +
      `Response time is typically ${RESPONSE_TIME}, Monday to Friday 8am-4pm. Prepay online to save $30, or pay on site.`,
  };
}
