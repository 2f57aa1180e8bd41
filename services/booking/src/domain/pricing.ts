/**
 * Server-authoritative pricing (spec section 9): the kernel's price list and quote arithmetic (@tyres/kernel
 * priceQuote, issue 13), in integer cents; money leaves here as 2-decimal strings. The client's numbers are never used.
 *   Every price is GST-inclusive (what the customer pays): gst = the GST inside the total, total ÷ 11 half-up to
 *   the cent (kernel gstInInclusive; issue 12 replaced the spec's "10% of total").
 *   A tyre size without a price (or no size) needs a callback: everything zero, callbackRequired.
 */
import { moneyToCents, toMoney, type Money, type ServiceType } from '@tyres/events';
import { gstInInclusive, priceQuote, type QuoteFees } from '@tyres/kernel';
import { MSG } from './messages';

export interface QuoteItem {
  description: string;
  price: Money;
}

export interface Quote {
  items: QuoteItem[];
  subtotal: Money;
  discount: Money;
  gst: Money;
  total: Money;
  callbackRequired: boolean;
  message?: string;
  /** Whether the prepaid discount applied (prepaid requested and allowed). */
  prepaid: boolean;
}

export interface QuoteInput {
  serviceType: ServiceType;
  /** Normalised size ("205/55R16") or null when unknown. */
  tyreSize: string | null;
  /** Supply price per tyre in cents, or null when the size has no price (callback). */
  tyrePriceCents: bigint | null;
  quantity: number;
  prepaid: boolean;
  /** The fee schedule in force at quote time (issue 19 price list); the kernel's PRICE_LIST when omitted. */
  fees?: QuoteFees;
}

const cents = (value: bigint) => toMoney(value);

export function callbackQuote(message: string = MSG.callForQuote): Quote {
  return {
    items: [],
    subtotal: '0.00',
    discount: '0.00',
    gst: '0.00',
    total: '0.00',
    callbackRequired: true,
    message,
    prepaid: false,
  };
}

export function computeQuote(input: QuoteInput): Quote {
  // A quote for new tyres names the size on its tyre line: no size, no price.
  if (input.serviceType === 'new-tyres' && !input.tyreSize) return callbackQuote();
  const priced = priceQuote(input, input.fees);
  if (!priced) return callbackQuote();
  return {
    items: priced.lines.map((l) => ({ description: l.description, price: cents(l.cents) })),
    subtotal: cents(priced.subtotal),
    discount: cents(priced.discount),
    gst: cents(gstInInclusive(priced.total)),
    total: cents(priced.total),
    callbackRequired: false,
    prepaid: priced.discounted,
  };
}

/** Spec section 9's prepaid discount rule: the kernel's. */
export { applyPrepaidDiscount } from '@tyres/kernel';

/** Prepaid online payment is offered only for priced quotes of services other than battery service. */
export function prepaidAllowed(serviceType: ServiceType, quote: Quote): boolean {
  return serviceType !== 'battery-service' && !quote.callbackRequired;
}

/** The public quote answer (spec "Price quote"): no internal flags. */
export function quoteBody(q: Quote) {
  return {
    items: q.items,
    subtotal: q.subtotal,
    discount: q.discount,
    gst: q.gst,
    total: q.total,
    callbackRequired: q.callbackRequired,
    ...(q.message ? { message: q.message } : {}),
  };
}

/** A Decimal/string price from the database to cents. */
export function priceToCents(value: { toFixed(d: number): string } | string): bigint {
  return moneyToCents(toMoney(value));
}
