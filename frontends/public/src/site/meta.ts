/**
 * Page metadata (spec section 2, landing page metadata): title, description, keywords, social-sharing tags,
 * canonical link and the business's structured data. One function per page, used both by the build-time
 * prerenderer (written into <head>) and by the pages in the browser (kept in sync on client-side navigation).
 */
import type { BusinessInfo } from '@tyres/platform';
import {
  FAQ,
  HOURS_LONG,
  PAYMENT_METHODS,
  PREPAID_SAVING,
  RATING,
  RESPONSE_TIME,
  SERVED_CITIES,
  SUBURBS_SERVED,
} from './content';
import { findLandingSuburb, LANDING_SUBURBS, suburbSlug, type Suburb } from './suburbs';

export interface PageMeta {
  title: string;
  description: string;
  keywords: string;
  /** Path of the canonical URL ("/about"). */
  canonicalPath: string;
  /** Pages that must not be indexed (404, checkout). */
  noindex?: boolean;
  /** Pages whose address is a secret (the manage link's token): sent to no other site as a referrer. */
  noReferrer?: boolean;
  ogType: 'website' | 'article';
  /** JSON-LD objects, each written as its own <script type="application/ld+json">. */
  jsonLd: object[];
}

export interface MetaContext {
  business: BusinessInfo;
  /** Absolute origin ("https://www.example.com.au"). */
  siteUrl: string;
}

const BASE_KEYWORDS = [
  'mobile tyres Perth',
  'mobile tyre fitting',
  'puncture repair',
  'mobile battery service',
  'roadside tyre help',
  'tyre fitting Perth',
  'Peel',
  'Mandurah',
  'Rockingham',
  'Fremantle',
];

export function absoluteUrl(siteUrl: string, path: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${path}`;
}

/** The business as schema.org LocalBusiness (areas Perth, Mandurah, Rockingham, Fremantle; 4.8 from 150). */
export function localBusinessJsonLd({ business, siteUrl }: MetaContext): object {
  const data: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': `${absoluteUrl(siteUrl, '/')}#business`,
    name: business.name,
    description: `Mobile tyre fitting, puncture repair and battery service across Perth and Peel. We come to you, ${HOURS_LONG}.`,
    url: absoluteUrl(siteUrl, '/'),
    areaServed: SERVED_CITIES.map((name) => ({ '@type': 'City', name })),
    address: {
      '@type': 'PostalAddress',
      addressLocality: 'Perth',
      addressRegion: 'WA',
      addressCountry: 'AU',
    },
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: RATING.value,
      reviewCount: String(RATING.count),
      bestRating: RATING.best,
    },
    openingHoursSpecification: [
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '08:00',
        closes: '16:00',
      },
    ],
    paymentAccepted: PAYMENT_METHODS.join(', '),
    currenciesAccepted: 'AUD',
    priceRange: '$$',
  };
  if (business.phone) data.telephone = business.phone;
  if (business.email) data.email = business.email;
  if (business.abn) data.taxID = `ABN ${business.abn}`;
  return data;
}

function faqJsonLd(suburb: Suburb): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: FAQ(suburb.name, suburb.postcode).map(({ q, a }) => ({
      '@type': 'Question',
      name: q,
      acceptedAnswer: { '@type': 'Answer', text: a },
    })),
  };
}

export function landingMeta(ctx: MetaContext): PageMeta {
  return {
    title: `Mobile Tyres Perth & Peel | Tyre Fitting, Puncture Repair & Batteries | ${ctx.business.name}`,
    description: `Mobile tyre fitting, puncture repair and battery service across Perth and Peel. We come to you: same or next day service, ${SUBURBS_SERVED} suburbs, rated ${RATING.value} from ${RATING.count} reviews. Prepay online and save ${PREPAID_SAVING}.`,
    keywords: BASE_KEYWORDS.join(', '),
    canonicalPath: '/',
    ogType: 'website',
    jsonLd: [localBusinessJsonLd(ctx)],
  };
}

export function aboutMeta(ctx: MetaContext): PageMeta {
  return {
    title: `About Us | ${ctx.business.name}`,
    description: `Over 20 years of mobile tyre experience across Perth and Peel. Customer first, quality guaranteed, convenient and professional: we come to you, ${HOURS_LONG}.`,
    keywords: ['about', ...BASE_KEYWORDS].join(', '),
    canonicalPath: '/about',
    ogType: 'website',
    jsonLd: [localBusinessJsonLd(ctx)],
  };
}

export function privacyMeta(ctx: MetaContext): PageMeta {
  return {
    title: `Privacy Policy | ${ctx.business.name}`,
    description: `How ${ctx.business.name} collects, uses and protects your personal information when you book a mobile tyre or battery service.`,
    keywords: 'privacy policy, personal information, mobile tyres Perth',
    canonicalPath: '/privacy',
    ogType: 'article',
    jsonLd: [localBusinessJsonLd(ctx)],
  };
}

export function termsMeta(ctx: MetaContext): PageMeta {
  return {
    title: `Terms of Service | ${ctx.business.name}`,
    description: `Terms for booking mobile tyre, puncture repair and battery services with ${ctx.business.name}: quotes, payments, cancellations and warranty.`,
    keywords: 'terms of service, cancellation policy, mobile tyres Perth',
    canonicalPath: '/terms',
    ogType: 'article',
    jsonLd: [localBusinessJsonLd(ctx)],
  };
}

export interface SuburbPageData {
  suburb: string;
  postcode: string;
  region: string;
  metaTitle?: string;
  metaDescription?: string;
  content?: string;
}

export function suburbMeta(ctx: MetaContext, data: SuburbPageData): PageMeta {
  const suburb: Suburb = {
    name: data.suburb,
    postcode: data.postcode,
    region: data.region as Suburb['region'],
  };
  return {
    title:
      data.metaTitle ?? `Mobile Tyres ${data.suburb} WA ${data.postcode} | Tyre Fitting & Puncture Repair`,
    description:
      data.metaDescription ??
      `Mobile tyre fitting, puncture repair and battery service in ${data.suburb} WA ${data.postcode}. We come to you, ${HOURS_LONG}, usually within ${RESPONSE_TIME}. Book online and save ${PREPAID_SAVING}.`,
    keywords: [
      `mobile tyres ${data.suburb}`,
      `tyre fitting ${data.suburb}`,
      `puncture repair ${data.suburb}`,
      `battery service ${data.suburb}`,
      data.region,
      ...BASE_KEYWORDS.slice(0, 4),
    ].join(', '),
    canonicalPath: `/${suburbSlug(data.suburb)}`,
    ogType: 'website',
    jsonLd: [localBusinessJsonLd(ctx), faqJsonLd(suburb)],
  };
}

export function suburbNotFoundMeta(ctx: MetaContext, path: string): PageMeta {
  return {
    title: `Service Area Not Found | ${ctx.business.name}`,
    description: 'Check whether we service your suburb and book a mobile tyre service online.',
    keywords: BASE_KEYWORDS.join(', '),
    canonicalPath: path,
    noindex: true,
    ogType: 'website',
    jsonLd: [],
  };
}

export function notFoundMeta(ctx: MetaContext, path: string): PageMeta {
  return {
    title: `Page Not Found | ${ctx.business.name}`,
    description: "Sorry, the page you're looking for doesn't exist or has been moved.",
    keywords: BASE_KEYWORDS.join(', '),
    canonicalPath: path,
    noindex: true,
    ogType: 'website',
    jsonLd: [],
  };
}

export function checkoutMeta(ctx: MetaContext, path: string): PageMeta {
  return {
    title: `Secure Checkout | ${ctx.business.name}`,
    description: 'Pay for your mobile tyre booking securely by card.',
    keywords: 'checkout',
    canonicalPath: path,
    noindex: true,
    ogType: 'website',
    jsonLd: [],
  };
}

/**
 * /manage/{token}: never indexed, and the token stays out of the canonical link, the Open Graph URL and any
 * referrer (the address is the customer's key to their booking).
 */
export function manageMeta(ctx: MetaContext): PageMeta {
  return {
    title: `Manage Your Booking | ${ctx.business.name}`,
    description: 'Check, reschedule or cancel your mobile tyre booking.',
    keywords: 'manage booking',
    canonicalPath: '/manage',
    noindex: true,
    noReferrer: true,
    ogType: 'website',
    jsonLd: [],
  };
}

export interface PrerenderPage {
  path: string;
  meta: PageMeta;
}

/**
 * Every crawlable page: prerendered at build time and listed in sitemap.xml. Suburb pages are served at both
 * /suburb/{name} (the landing page's links) and /mobile-tyres-{name}; the canonical link of both names the
 * mobile-tyres-{name} slug, and only that one is in the sitemap.
 */
export function crawlablePages(ctx: MetaContext): { pages: PrerenderPage[]; sitemap: string[] } {
  const pages: PrerenderPage[] = [
    { path: '/', meta: landingMeta(ctx) },
    { path: '/about', meta: aboutMeta(ctx) },
    { path: '/privacy', meta: privacyMeta(ctx) },
    { path: '/terms', meta: termsMeta(ctx) },
  ];
  for (const suburb of LANDING_SUBURBS) {
    const meta = suburbMeta(ctx, { suburb: suburb.name, postcode: suburb.postcode, region: suburb.region });
    pages.push({ path: `/suburb/${suburb.name.toLowerCase().replace(' ', '-')}`, meta });
    pages.push({ path: `/${suburbSlug(suburb.name)}`, meta });
  }
  const sitemap = [...new Set(pages.map((page) => page.meta.canonicalPath))];
  return { pages, sitemap };
}

/** Metadata of a known page by path (used by the prerenderer's self-check). */
export function knownSuburbFromPath(pathname: string): Suburb | undefined {
  const match = /^\/(?:suburb\/|mobile-tyres-)([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? findLandingSuburb(match[1]) : undefined;
}
