/**
 * The public site's facts and constants (product spec sections 1, 2 and 9). Every claim the site makes comes
 * from here, so the pages, the metadata and the structured data cannot drift apart.
 */
import { formatListPrice, PRICE_LIST, SERVICE_LABELS, type ServiceType } from '@tyres/kernel';

export const HOURS_SHORT = 'Mon–Fri 8am–4pm';
export const HOURS_LONG = 'Monday to Friday, 8am–4pm';
export const RESPONSE_TIME = '30-60 mins';
export const RESPONSE_TIME_LONG = '30–60 minutes';
export const YEARS_EXPERIENCE = '20+';
export const SUBURBS_SERVED = '350+';
export const RATING = { value: '4.8', count: 150, best: '5' } as const;
export const WARRANTY = '12-month warranty';
// Prices as the site shows them ("$40", "$89.80"), from the kernel's price list: the one the booking service quotes.
export const PREPAID_SAVING = formatListPrice(PRICE_LIST.prepaidDiscount);
export const NEW_TYRES_FROM = formatListPrice(PRICE_LIST.newTyresBasePrice);
export const CALLOUT_FEE = formatListPrice(PRICE_LIST.calloutFee);
export const PUNCTURE_REPAIR = formatListPrice(PRICE_LIST.punctureRepair);
// The card surcharge rate is on the price list (issue 19): site/surcharge.ts reads the rate in force.
export const QUOTE_VALIDITY = '7 days';
export const LEGAL_LAST_UPDATED = 'October 2024';

/** Areas named in the business's structured data (spec section 2, landing page metadata). */
export const SERVED_CITIES = ['Perth', 'Mandurah', 'Rockingham', 'Fremantle'] as const;

export const PAYMENT_METHODS = [
  'Visa',
  'Mastercard',
  'Amex',
  'EFTPOS',
  'PayID',
  'Cash',
  'Zip',
  'Klarna',
] as const;
export const PAY_IN_4 = 'Pay in 4 with Zip and Klarna';

export const HIGHLIGHTS = [
  {
    title: 'Same or next day service',
    text: 'Book today and we can usually be with you today or tomorrow.',
  },
  { title: 'We come to you', text: 'At home, at work or at the roadside anywhere across Perth and Peel.' },
  {
    title: 'Professional equipment',
    text: 'Fully equipped service vans for fitting, balancing and puncture repairs on the spot.',
  },
  {
    title: '12-month warranty',
    text: 'Every tyre fitting and puncture repair is covered by our 12-month warranty.',
  },
] as const;

export const STATS = [
  { value: YEARS_EXPERIENCE, label: 'Years experience' },
  { value: SUBURBS_SERVED, label: 'Suburbs covered' },
  { value: `${RATING.value}★`, label: `From ${RATING.count} reviews` },
  { value: RESPONSE_TIME, label: 'Typical response time' },
] as const;

export const SERVICE_CARDS = [
  {
    id: 'new-tyres',
    title: 'New Tyres',
    price: `From ${NEW_TYRES_FROM} per tyre`,
    text: 'Quality new tyres supplied, fitted and balanced at your place. Tell us your tyre size for an instant price.',
  },
  {
    id: 'puncture-repair',
    title: 'Puncture Repair',
    price: `${PUNCTURE_REPAIR} + ${CALLOUT_FEE} callout`,
    text: 'Professional plug-and-patch repairs where it is safe to repair, with a 12-month warranty.',
  },
  {
    id: 'battery-service',
    title: 'Mobile Battery Service',
    price: 'Quote on site',
    text: 'Battery testing and replacement wherever your car is parked. We quote on site before any work starts.',
  },
  {
    id: 'emergency-callout',
    title: 'Mobile Tyre Service',
    price: `${CALLOUT_FEE} callout`,
    text: `Flat tyre at home, at work or at the roadside? Emergency callout ${HOURS_SHORT}, usually within ${RESPONSE_TIME_LONG}.`,
  },
] as const;

/** The booking dialog's services (the booking contract's service types and labels) with a hint each. */
export const SERVICE_OPTIONS: readonly { id: ServiceType; label: string; hint: string }[] = [
  {
    id: 'new-tyres',
    label: SERVICE_LABELS['new-tyres'],
    hint: `Supplied, fitted and balanced. From ${NEW_TYRES_FROM} per tyre plus ${CALLOUT_FEE} callout.`,
  },
  {
    id: 'puncture-repair',
    label: SERVICE_LABELS['puncture-repair'],
    hint: `${PUNCTURE_REPAIR} repair plus ${CALLOUT_FEE} callout.`,
  },
  {
    id: 'battery-service',
    label: SERVICE_LABELS['battery-service'],
    hint: 'Battery test and replacement, quoted on site.',
  },
  {
    id: 'emergency-callout',
    label: SERVICE_LABELS['emergency-callout'],
    hint: `Roadside help ${HOURS_SHORT}. ${CALLOUT_FEE} callout.`,
  },
];

export const FAQ = (suburb: string, postcode: string) => [
  {
    q: `Do you come to me in ${suburb}?`,
    a: `Yes. We are a fully mobile service: we come to your home, workplace or the roadside anywhere in ${suburb} (${postcode}), ${HOURS_LONG}.`,
  },
  {
    q: `How quickly can you get to ${suburb}?`,
    a: `Our typical response time is ${RESPONSE_TIME_LONG}, and we offer same or next day service for bookings.`,
  },
  {
    q: 'How much does it cost?',
    a: `New tyres start from ${NEW_TYRES_FROM} per tyre fitted and balanced, puncture repairs are ${PUNCTURE_REPAIR}, plus a ${CALLOUT_FEE} callout fee. Prepay online and save ${PREPAID_SAVING}. Battery service is quoted on site. Prices include GST.`,
  },
  {
    q: 'Is the work guaranteed?',
    a: 'Yes. Tyre fitting and puncture repairs come with a 12-month warranty.',
  },
  {
    q: 'How can I pay?',
    a: `${PAYMENT_METHODS.slice(0, -1).join(', ')} or ${PAYMENT_METHODS[PAYMENT_METHODS.length - 1]}. ${PAY_IN_4}. Pay online when you book, or on site.`,
  },
];
