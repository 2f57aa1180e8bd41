import {
  cardSurchargeLine,
  formatMoney,
  toCents,
  lineAmount,
  PRICE_LIST,
  type Cents,
  type ServiceType,
  type SurchargeRate,
} from '@tyres/kernel';
import { MAX_TYRES_PER_JOB, type LineItemCategory } from './constants';

export type { ServiceType };

/** What invoice generation needs to know about a job. */
export interface JobForInvoice {
  serviceType: ServiceType;
  tyreSize: string | null;
  tyreQuantity: number | null;
  tyreBrand: string | null;
  /** What the customer was quoted / agreed to pay: GST-inclusive, like every price a customer sees. */
  customerValue: Cents;
  paymentMethod: 'onsite' | 'prepaid' | string;
  paymentStatus: string;
  /** The quote the job was booked at (BookingCreated `quote`, issue 19); absent for older bookings. */
  quote?: JobQuote | null;
}

/** The quote a job was booked at, in cents (its lines GST-inclusive, before the prepaid discount). */
export interface JobQuote {
  lines: { code: string; description: string; amount: Cents }[];
  discount: Cents;
}

/** A stored quote (job_snapshots.quote_lines JSON, money strings) in cents; undefined when absent or malformed. */
export function parseJobQuote(value: unknown): JobQuote | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const q = value as { lines?: unknown; discount?: unknown };
  if (!Array.isArray(q.lines) || q.lines.length === 0 || typeof q.discount !== 'string') return undefined;
  try {
    return {
      lines: q.lines.map((l: { code: string; description: string; amount: string }) => ({
        code: String(l.code),
        description: String(l.description),
        amount: toCents(l.amount),
      })),
      discount: toCents(q.discount),
    };
  } catch {
    return undefined;
  }
}

/** One line of a generated invoice. Amounts include GST: generated invoices are tax inclusive. */
export interface GeneratedLine {
  description: string;
  category: LineItemCategory;
  quantity: number;
  unitPrice: Cents;
  /** quantity × unitPrice, exactly. */
  totalPrice: Cents;
  gstFree: boolean;
}

/** The closing note of an invoice paid online at booking. */
export const PAID_ONLINE_NOTE = 'Paid online at booking - thank you';

function line(
  description: string,
  category: LineItemCategory,
  quantity: number,
  unitPrice: Cents,
): GeneratedLine {
  return {
    description,
    category,
    quantity,
    unitPrice,
    totalPrice: lineAmount(quantity, unitPrice),
    gstFree: false,
  };
}

/**
 * `template` re-priced to `total`: per unit when the total divides by the quantity to the cent, else one line
 * "n × description" of the whole total (quantity × unit price always stays exact).
 */
function repriced(template: GeneratedLine, total: Cents): GeneratedLine {
  const quantity = BigInt(template.quantity);
  return total % quantity === 0n
    ? line(template.description, template.category, template.quantity, total / quantity)
    : line(`${template.quantity} × ${template.description}`, template.category, 1, total);
}

const sum = (lines: readonly GeneratedLine[]): Cents => lines.reduce((s, l) => s + l.totalPrice, 0n);

/** The lines with their totals lowered by `amount` in all, first lines first, none below 0. */
function reduceLines(lines: readonly GeneratedLine[], amount: Cents): GeneratedLine[] {
  let left = amount;
  return lines.map((current) => {
    const cut = current.totalPrice < left ? current.totalPrice : left;
    left -= cut;
    return repriced(current, current.totalPrice - cut);
  });
}

function tyreDescription(job: JobForInvoice): string {
  const size = job.tyreSize?.trim();
  const brand = job.tyreBrand?.trim();
  return ['New tyre', size, brand ? `(${brand})` : undefined].filter(Boolean).join(' ');
}

/**
 * The job's price as invoice lines: callout, tyres, fitting and balancing per tyre, puncture repair, battery, with the
 * spec's categories. The price list (the kernel's PRICE_LIST: callout 89.80, fitting 25 and balancing 15 per tyre,
 * puncture repair 40, battery quoted on site) is GST-inclusive like every price shown to customers.
 *
 * When the job has a value (customerValue > 0) the lines add up to exactly that value: the tyre line (new tyres) or
 * the battery line takes what remains after the fees; a prepaid job shows the $30 prepayment discount on the callout
 * line; on a fixed-price job a higher value adds an "Additional services" line and a lower one reduces the fees
 * (first lines first, never below 0). With no value yet (callback quotes) the price list stands, tyres at 0 for
 * staff to price.
 */
/** Invoice order of the quote's line codes (callout first, like the code's split). */
const CODE_ORDER = ['callout', 'tyre', 'fitting', 'balancing', 'puncture-repair', 'battery', 'other'];

/** The quote's lines as invoice lines (per tyre where the amount divides), in the invoice's usual order. */
function quotedLines(job: JobForInvoice, quote: JobQuote): GeneratedLine[] {
  const tyres = Math.min(MAX_TYRES_PER_JOB, Math.max(1, job.tyreQuantity ?? 1));
  const rank = (code: string) => {
    const i = CODE_ORDER.indexOf(code);
    return i < 0 ? CODE_ORDER.length : i;
  };
  return [...quote.lines]
    .sort((a, b) => rank(a.code) - rank(b.code))
    .map((q) => {
      switch (q.code) {
        case 'callout':
          return line(
            job.serviceType === 'emergency-callout' ? 'Emergency callout fee' : 'Mobile callout fee',
            'callout',
            1,
            q.amount,
          );
        case 'tyre':
          return repriced(line(tyreDescription(job), 'tyre', tyres, 0n), q.amount);
        case 'fitting':
          return repriced(line('Tyre fitting', 'labour', tyres, 0n), q.amount);
        case 'balancing':
          return repriced(line('Wheel balancing', 'labour', tyres, 0n), q.amount);
        case 'puncture-repair':
          return line('Puncture repair', 'labour', 1, q.amount);
        case 'battery':
          return line(q.description, 'battery', 1, q.amount);
        default:
          return line(q.description, 'labour', 1, q.amount);
      }
    });
}

/**
 * The lines of a job booked with a quote (issue 19): the fees as quoted (the price list in force then), the prepaid
 * discount on the callout line, and, when staff changed the price since (JobUpdated), the difference as an
 * "Additional services" line (a rise) or taken off the lines first to last (a drop): they always add up to the value.
 */
function quotePriceLines(job: JobForInvoice, quote: JobQuote): GeneratedLine[] {
  let lines = quotedLines(job, quote);
  if (quote.discount > 0n) {
    const i = lines.findIndex((l) => l.category === 'callout' && l.totalPrice >= quote.discount);
    const callout = lines[i];
    if (callout)
      lines[i] = line(
        `${callout.description} (less $${formatMoney(quote.discount)} prepaid online discount)`,
        'callout',
        1,
        callout.totalPrice - quote.discount,
      );
    else lines.push(line('Prepaid online discount', 'labour', 1, -quote.discount));
  }
  const diff = job.customerValue - sum(lines);
  if (diff > 0n) lines.push(line('Additional services', 'labour', 1, diff));
  else if (diff < 0n) lines = reduceLines(lines, -diff);
  return lines;
}

function priceLines(job: JobForInvoice): GeneratedLine[] {
  if (job.quote && job.quote.lines.length > 0) return quotePriceLines(job, job.quote);
  const value = job.customerValue;
  let lines: GeneratedLine[] = [];
  // The line that takes the job's value beyond the fixed fees (priced on the day or at booking).
  let open: number | undefined;

  switch (job.serviceType) {
    case 'new-tyres': {
      const tyres = Math.min(MAX_TYRES_PER_JOB, Math.max(1, job.tyreQuantity ?? 1));
      lines.push(line('Mobile callout fee', 'callout', 1, PRICE_LIST.calloutFee));
      open = lines.push(line(tyreDescription(job), 'tyre', tyres, 0n)) - 1;
      lines.push(line('Tyre fitting', 'labour', tyres, PRICE_LIST.fittingPerTyre));
      lines.push(line('Wheel balancing', 'labour', tyres, PRICE_LIST.balancingPerTyre));
      break;
    }
    case 'puncture-repair':
      lines.push(line('Mobile callout fee', 'callout', 1, PRICE_LIST.calloutFee));
      lines.push(line('Puncture repair', 'labour', 1, PRICE_LIST.punctureRepair));
      break;
    case 'emergency-callout':
      lines.push(line('Emergency callout fee', 'callout', 1, PRICE_LIST.calloutFee));
      break;
    case 'battery-service':
      open = lines.push(line('Battery Service (Quote on site)', 'battery', 1, PRICE_LIST.batteryService)) - 1;
      break;
  }

  // The prepayment discount shows on the callout line (every callout fee exceeds it). A fixed-price job valued at
  // its full list price (or more) was not discounted, so it shows none.
  const calloutIndex = lines.findIndex((l) => l.category === 'callout');
  const callout = lines[calloutIndex];
  if (job.paymentMethod === 'prepaid' && callout && (open !== undefined || value < sum(lines))) {
    lines[calloutIndex] = line(
      `${callout.description} (less $${formatMoney(PRICE_LIST.prepaidDiscount)} prepaid online discount)`,
      'callout',
      1,
      callout.totalPrice - PRICE_LIST.prepaidDiscount,
    );
  }

  if (value > 0n) {
    const diff = value - sum(lines);
    if (diff > 0n) {
      if (open === undefined) lines.push(line('Additional services', 'labour', 1, diff));
      else lines[open] = repriced(lines[open] as GeneratedLine, diff);
    } else {
      // Valued at or below the fees: they are lowered (the open line is still 0, so only fees are).
      lines = reduceLines(lines, -diff);
    }
  }
  return lines;
}

/**
 * The lines of "Generate Invoice" (spec sections 3 and 9): the job's price as lines adding up exactly to its
 * GST-inclusive value (see priceLines), and a closing note when it was paid online at booking. The invoice they go on
 * is tax inclusive: its total is the job's price and its GST one eleventh of it (kernel invoiceTotals).
 */
export function buildInvoiceLines(job: JobForInvoice): GeneratedLine[] {
  const lines = priceLines(job);
  if (job.paymentMethod === 'prepaid' && job.paymentStatus === 'paid')
    lines.push(line(PAID_ONLINE_NOTE, 'note', 1, 0n));
  return lines;
}

/** What the card was charged for a prepaid booking (billing's payment row). */
export interface CardPayment {
  /** The booking's price (after the prepayment discount), GST-inclusive. */
  originalAmount: Cents;
  /** The card surcharge (kernel cardSurcharge at the payment's rate, stored with the payment). */
  surchargeAmount: Cents;
  /** The rate it was charged at (basis points; the payment row's surcharge_rate); 1.70% when omitted. */
  surchargeRate?: SurchargeRate;
}

/**
 * The lines of a prepaid booking's invoice, made when its card payment succeeds: the job's price as paid (discount on
 * the callout line), the "Card surcharge 1.7%" line, and the paid-online note. They add up to exactly what the card
 * was charged (original + surcharge). The surcharge is part of the taxable supply, so its line carries GST.
 */
export function prepaidInvoiceLines(job: JobForInvoice, payment: CardPayment): GeneratedLine[] {
  const lines = priceLines({ ...job, customerValue: payment.originalAmount, paymentMethod: 'prepaid' });
  if (payment.surchargeAmount > 0n)
    lines.push(line(cardSurchargeLine(payment.surchargeRate), 'surcharge', 1, payment.surchargeAmount));
  lines.push(line(PAID_ONLINE_NOTE, 'note', 1, 0n));
  return lines;
}
