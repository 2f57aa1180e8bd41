/**
 * Server-authoritative pricing (spec section 9). All arithmetic in integer cents (bigint); money leaves as
 * 2-decimal strings. The client's numbers are never used.
 *
 *   new-tyres:         tyres (price x qty) + fitting (25 x qty) + balancing (15 x qty) + callout 89.80
 *   puncture-repair:   40 + callout 89.80
 *   battery-service:   one line "Battery Service (Quote on site)" at 0
 *   emergency-callout: callout 89.80
 *   discount 30 only when prepaid and subtotal > 0; total = max(0, subtotal - discount).
 *   Every price is GST-inclusive (what the customer pays): gst = the GST inside the total, total ÷ 11 half-up to
 *   the cent (kernel gstInInclusive; issue 12 replaced the spec's "10% of total").
 *   A tyre size without a price (or no size) needs a callback: everything zero, callbackRequired.
 */
import { moneyToCents, toMoney, type Money, type ServiceType } from '@tyres/events';
import { gstInInclusive } from '@tyres/kernel';
import { PRICES } from './constants';
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
  const qty = BigInt(input.quantity);
  const lines: { description: string; cents: bigint }[] = [];
  switch (input.serviceType) {
    case 'new-tyres': {
      if (!input.tyreSize || input.tyrePriceCents === null) return callbackQuote();
      const tyres = input.quantity === 1 ? '1 tyre' : `${input.quantity} tyres`;
      lines.push({ description: `${input.tyreSize} tyres (${tyres})`, cents: input.tyrePriceCents * qty });
      lines.push({ description: `Fitting (${tyres})`, cents: PRICES.fittingPerTyre * qty });
      lines.push({ description: `Balancing (${tyres})`, cents: PRICES.balancingPerTyre * qty });
      lines.push({ description: 'Callout fee', cents: PRICES.calloutFee });
      break;
    }
    case 'puncture-repair':
      lines.push({ description: 'Puncture repair', cents: PRICES.punctureRepair });
      lines.push({ description: 'Callout fee', cents: PRICES.calloutFee });
      break;
    case 'battery-service':
      lines.push({ description: 'Battery Service (Quote on site)', cents: PRICES.batteryService });
      break;
    case 'emergency-callout':
      lines.push({ description: 'Emergency callout fee', cents: PRICES.calloutFee });
      break;
  }
  const subtotal = lines.reduce((sum, l) => sum + l.cents, 0n);
  const { discount, total, discounted } = applyPrepaidDiscount(subtotal, input.prepaid);
  return {
    items: lines.map((l) => ({ description: l.description, price: cents(l.cents) })),
    subtotal: cents(subtotal),
    discount: cents(discount),
    gst: cents(gstInInclusive(total)),
    total: cents(total),
    callbackRequired: false,
    prepaid: discounted,
  };
}

/**
 * Spec section 9: the $30 prepaid discount applies only to a priced quote (subtotal above zero), and the total never
 * goes below zero.
 */
export function applyPrepaidDiscount(
  subtotal: bigint,
  prepaid: boolean,
): { discount: bigint; total: bigint; discounted: boolean } {
  const discounted = prepaid && subtotal > 0n;
  const discount = discounted ? PRICES.prepaidDiscount : 0n;
  const remaining = subtotal - discount;
  // Stryker disable next-line EqualityOperator: at exactly zero both branches give 0 (an equivalent mutant).
  return { discount, total: remaining > 0n ? remaining : 0n, discounted };
}

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
