import {
  BALANCING_FEE_PER_TYRE,
  BATTERY_SERVICE_PRICE,
  CALLOUT_FEE,
  FITTING_FEE_PER_TYRE,
  PREPAYMENT_DISCOUNT,
  PUNCTURE_REPAIR_FEE,
  type LineItemCategory,
} from './constants';
import { Decimal, lineTotal, toCents } from './money';

export type ServiceType = 'new-tyres' | 'puncture-repair' | 'battery-service' | 'emergency-callout';

/** What invoice generation needs to know about a job. */
export interface JobForInvoice {
  serviceType: ServiceType;
  tyreSize: string | null;
  tyreQuantity: number | null;
  tyreBrand: string | null;
  /** What the customer was quoted / agreed to pay (GST-exclusive for the invoice; GST goes on top). */
  customerValue: Decimal.Value;
  paymentMethod: 'onsite' | 'prepaid' | string;
  paymentStatus: string;
}

export interface GeneratedLine {
  description: string;
  category: LineItemCategory;
  quantity: number;
  unitPrice: Decimal;
  totalPrice: Decimal;
}

function line(
  description: string,
  category: LineItemCategory,
  quantity: number,
  unitPrice: Decimal.Value,
): GeneratedLine {
  const price = toCents(unitPrice);
  return { description, category, quantity, unitPrice: price, totalPrice: lineTotal(quantity, price) };
}

const sum = (lines: readonly GeneratedLine[]) => lines.reduce((s, l) => s.plus(l.totalPrice), new Decimal(0));

/** Lowers line totals (first lines first) by `amount`, never below 0; returns what could not be absorbed. */
function reduceLines(
  lines: GeneratedLine[],
  amount: Decimal,
  skip: ReadonlySet<GeneratedLine> = new Set(),
): Decimal {
  let left = amount;
  for (let i = 0; i < lines.length && left.gt(0); i++) {
    const current = lines[i] as GeneratedLine;
    if (skip.has(current) || current.totalPrice.isZero()) continue;
    const cut = Decimal.min(left, current.totalPrice);
    const newTotal = current.totalPrice.minus(cut);
    // Keep quantity × unit price exact: a reduced multi-unit line becomes one line of its new total.
    const divisible =
      newTotal.mod(current.quantity).isZero() && newTotal.div(current.quantity).decimalPlaces() <= 2;
    lines[i] = divisible
      ? line(current.description, current.category, current.quantity, newTotal.div(current.quantity))
      : line(`${current.quantity} × ${current.description}`, current.category, 1, newTotal);
    left = left.minus(cut);
  }
  return left;
}

function tyreDescription(job: JobForInvoice): string {
  const size = job.tyreSize?.trim();
  const brand = job.tyreBrand?.trim();
  return ['New tyre', size, brand ? `(${brand})` : undefined].filter(Boolean).join(' ');
}

/**
 * The lines of a generated invoice (spec sections 3 and 9): callout, tyres, fitting and balancing per tyre,
 * puncture repair, battery, with the spec's categories (callout, tyre, labour, battery, note).
 *
 * Fees come from the price list (callout 89.80, fitting 25 and balancing 15 per tyre, puncture repair 40, battery
 * quote on site 0). When the job carries a value (customerValue > 0) the lines add up to exactly that value:
 * for new tyres the tyre line is what remains after the fees (split per tyre when it divides to the cent), a
 * prepaid job shows the $30 prepayment discount on the callout line, other differences go to an "Additional
 * services" line (or reduce the fees). With no value yet (callback quotes), the price list is used as it stands,
 * tyres at 0 for staff to price. GST is added on top by the invoice totals, not here.
 */
export function buildInvoiceLines(job: JobForInvoice): GeneratedLine[] {
  const value = toCents(job.customerValue);
  const prepaid = job.paymentMethod === 'prepaid';
  const lines: GeneratedLine[] = [];
  let absorb: GeneratedLine | undefined;

  switch (job.serviceType) {
    case 'new-tyres': {
      const n = Math.min(4, Math.max(1, job.tyreQuantity ?? 1));
      lines.push(line('Mobile callout fee', 'callout', 1, CALLOUT_FEE));
      absorb = line(tyreDescription(job), 'tyre', n, 0);
      lines.push(absorb);
      lines.push(line('Tyre fitting', 'labour', n, FITTING_FEE_PER_TYRE));
      lines.push(line('Wheel balancing', 'labour', n, BALANCING_FEE_PER_TYRE));
      break;
    }
    case 'puncture-repair':
      lines.push(line('Mobile callout fee', 'callout', 1, CALLOUT_FEE));
      lines.push(line('Puncture repair', 'labour', 1, PUNCTURE_REPAIR_FEE));
      break;
    case 'emergency-callout':
      lines.push(line('Emergency callout fee', 'callout', 1, CALLOUT_FEE));
      break;
    case 'battery-service':
      absorb = line('Battery Service (Quote on site)', 'battery', 1, BATTERY_SERVICE_PRICE);
      lines.push(absorb);
      break;
  }

  // The prepayment discount (only when prepaid and there is something to discount) shows on the callout line.
  const callout = lines.find((l) => l.category === 'callout');
  const listTotal = sum(lines);
  // With a value to match, a fixed-price job shows the discount only when its value is below the list price.
  if (
    prepaid &&
    callout &&
    listTotal.gt(0) &&
    (value.isZero() || absorb !== undefined || value.lt(listTotal))
  ) {
    const discount = Decimal.min(PREPAYMENT_DISCOUNT, callout.totalPrice);
    const discounted = line(
      `${callout.description} (less $${toCents(discount).toFixed(2)} prepaid online discount)`,
      'callout',
      1,
      callout.totalPrice.minus(discount),
    );
    lines[lines.indexOf(callout)] = discounted;
  }

  if (value.gt(0)) {
    const diff = value.minus(sum(lines));
    if (absorb) {
      const index = lines.indexOf(absorb);
      const target = Decimal.max(0, absorb.totalPrice.plus(diff));
      const perUnit = target.div(absorb.quantity);
      lines[index] =
        perUnit.decimalPlaces() <= 2
          ? line(absorb.description, absorb.category, absorb.quantity, perUnit)
          : line(`${absorb.quantity} × ${absorb.description}`, absorb.category, 1, target);
      const shortfall = absorb.totalPrice.plus(diff).lt(0)
        ? absorb.totalPrice.plus(diff).neg()
        : new Decimal(0);
      if (shortfall.gt(0)) reduceLines(lines, shortfall, new Set([lines[index] as GeneratedLine]));
    } else if (diff.gt(0)) {
      lines.push(line('Additional services', 'labour', 1, diff));
    } else if (diff.lt(0)) {
      reduceLines(lines, diff.neg());
    }
  }

  if (prepaid && job.paymentStatus === 'paid')
    lines.push(line('Paid online at booking - thank you', 'note', 1, 0));
  return lines;
}
