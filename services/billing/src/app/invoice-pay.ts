/**
 * Paying a customer invoice online (issue 18, item 4). The invoice email and PDF carry a "Pay now" link
 * (`<PUBLIC_SITE_URL>/pay/<token>`, only the token's sha256 is stored); the public page reads the invoice's summary
 * and asks for ONE PaymentIntent per invoice and amount; the provider's payment_intent.succeeded (webhook, or the
 * labelled test mode's confirmation through the same handler) marks the invoice paid exactly once and a receipt is
 * emailed through the invoice email queue. A second successful payment of an invoice already paid (or cancelled) is
 * refunded in full automatically (docs/decisions.md, "Paying an invoice online").
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { dateFromDb, formatAud, formatMoney, type AmountType, type SurchargeRate } from '@tyres/kernel';
import { conflict, HttpError, isUniqueViolation, type Logger } from '@tyres/service-kit';
import type { Db, Tx } from '../db/client';
import type { InvoiceWithJobAndItems } from '../db/customer-invoices';
import type { Payment } from '../db/generated/client';
import { findInvoicePayment, insertInvoicePayment, insertPayLink, invoiceOfPayLink } from '../db/pay-links';
import { findPayment, updatePayment } from '../db/payments';
import { centsOf, fitsMoneyColumn, moneyString } from '../domain/money';
import {
  firstNameOf,
  invoicePayment,
  looksLikePayToken,
  PAYABLE_STATUSES,
  PAY_MSG,
  payStatus,
  payUrl,
  rateColumn,
  rateLabel,
  rateOfPayment,
  type PayStatus,
} from '../domain/pay-invoice';
import type { BookingClient } from '../http/booking-client';
import type { PaymentProvider } from '../http/stripe-client';
import type { CustomerInvoices } from './customer-invoices';

export const hashPayToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const newPayToken = () => randomBytes(32).toString('base64url');

/** One answer for an unknown, malformed or deleted invoice's link: it does not say which. */
const linkNotFound = () => new HttpError(404, PAY_MSG.linkNotFound, 'not_found');

export interface PayLineView {
  description: string;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
  gstFree: boolean;
}

/** GET /api/pay/{token}: the invoice as the customer sees it; no personal data beyond their first name. */
export interface PayInvoiceView {
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string | null;
  customerFirstName: string;
  status: PayStatus;
  amountType: AmountType;
  lines: PayLineView[];
  subtotalAmount: string;
  gstAmount: string;
  totalAmount: string;
  /** The card surcharge in force now, as the customer reads it ("1.7%"). */
  surchargeRate: string;
  /** What paying by card adds (GST included); 0.00 once the invoice is paid or cancelled. */
  surchargeAmount: string;
  surchargeGstAmount: string;
  /** What the card is charged; 0.00 once the invoice is paid or cancelled. */
  amountToPay: string;
  paidAt: string | null;
  currency: 'AUD';
}

export interface InvoicePaymentAnswer {
  payment: Payment;
  invoiceNumber: string;
}

/** What applying a succeeded invoice payment did (the webhook's answer names it). */
export type InvoicePaymentOutcome =
  | { kind: 'invoice-paid'; payment: Payment; alreadySucceeded: boolean }
  /** The invoice was already paid (or cancelled, or deleted): this payment is refunded in full. */
  | { kind: 'invoice-already-paid'; payment: Payment };

/** Enqueues the receipt email (deterministic job id: one receipt per payment). */
export type ReceiptQueue = (job: { invoiceId: string; paymentId: string; to: string }) => Promise<void>;

export interface InvoicePayDeps {
  db: Db;
  invoices: Pick<CustomerInvoices, 'payOnline'>;
  provider: PaymentProvider;
  queueReceipt: ReceiptQueue;
  logger: Logger;
  clock: () => Date;
  /** The public site's origin: pay links are `<siteUrl>/pay/<token>`. */
  siteUrl: string;
  /** Where the card surcharge rate in force comes from (booking's price list); 503 when it can't say. */
  surchargeRate: Pick<BookingClient, 'cardSurchargeRate'>;
}

function linesOf(invoice: InvoiceWithJobAndItems) {
  return [...invoice.items]
    .sort((a, b) => a.position - b.position)
    .map((i) => ({ amount: centsOf(i.totalPrice), gstFree: i.gstFree }));
}

/**
 * The amounts of paying the invoice now at `rate` (the card surcharge in force); undefined when it has nothing to
 * pay (no lines, or a zero total).
 */
function payableAmounts(invoice: InvoiceWithJobAndItems, rate?: SurchargeRate) {
  if (invoice.items.length === 0) return undefined;
  const pay = invoicePayment(linesOf(invoice), invoice.amountType as AmountType, rate);
  if (pay.invoice.total <= 0n || !fitsMoneyColumn(pay.paid.total)) return undefined;
  return pay;
}

export class InvoicePay {
  constructor(private readonly deps: InvoicePayDeps) {}

  get mode(): 'live' | 'test' {
    return this.deps.provider.mode;
  }

  /**
   * A new "Pay now" link for the invoice's email or PDF, or undefined when it is not payable (paid, cancelled,
   * nothing to pay). Each document gets a link of its own; every link of the invoice works until it is paid.
   */
  async issueLink(invoice: InvoiceWithJobAndItems): Promise<string | undefined> {
    // Whether there is anything to pay does not depend on the rate: the default rate is enough to tell.
    if (!PAYABLE_STATUSES.has(invoice.status) || !payableAmounts(invoice)) return undefined;
    const token = newPayToken();
    await insertPayLink(this.deps.db, hashPayToken(token), invoice.id);
    return payUrl(this.deps.siteUrl, token);
  }

  private async invoiceOf(token: string): Promise<InvoiceWithJobAndItems> {
    if (!looksLikePayToken(token)) throw linkNotFound();
    const invoice = await invoiceOfPayLink(this.deps.db, hashPayToken(token));
    if (!invoice) throw linkNotFound();
    return invoice;
  }

  async summary(token: string): Promise<PayInvoiceView> {
    const invoice = await this.invoiceOf(token);
    const open = PAYABLE_STATUSES.has(invoice.status);
    // The amounts shown are at the rate in force now (booking's price list); 503 rather than a guessed rate.
    const rate = open ? await this.deps.surchargeRate.cardSurchargeRate() : undefined;
    const payable = open ? payableAmounts(invoice, rate) : undefined;
    const zero = formatMoney(0n);
    return {
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: dateFromDb(invoice.invoiceDate),
      dueDate: invoice.dueDate ? dateFromDb(invoice.dueDate) : null,
      customerFirstName: firstNameOf(invoice.job.customerName),
      status: payStatus(invoice.status),
      amountType: invoice.amountType as AmountType,
      lines: [...invoice.items]
        .sort((a, b) => a.position - b.position)
        .map((i) => ({
          description: i.description,
          quantity: i.quantity,
          unitPrice: moneyString(i.unitPrice),
          totalPrice: moneyString(i.totalPrice),
          gstFree: i.gstFree,
        })),
      subtotalAmount: moneyString(invoice.subtotalAmount),
      gstAmount: moneyString(invoice.gstAmount),
      totalAmount: moneyString(invoice.totalAmount),
      surchargeRate: rate === undefined ? '' : rateLabel(rate),
      surchargeAmount: payable ? formatMoney(payable.surcharge) : zero,
      surchargeGstAmount: payable ? formatMoney(payable.surchargeGst) : zero,
      amountToPay: payable ? formatMoney(payable.paid.total) : zero,
      paidAt: invoice.paidAt?.toISOString() ?? null,
      currency: 'AUD',
    };
  }

  /**
   * The PaymentIntent for the invoice as it stands: the same one while its amount is unchanged (one payment row per
   * invoice and amount, unique; Stripe's idempotency key per invoice and amount). 409 once paid or cancelled.
   */
  async startPayment(token: string): Promise<InvoicePaymentAnswer> {
    const invoice = await this.invoiceOf(token);
    if (invoice.status === 'paid') throw conflict(PAY_MSG.alreadyPaid, undefined, 'already_paid');
    if (invoice.status === 'cancelled') throw conflict(PAY_MSG.cancelled, undefined, 'invoice_cancelled');
    // The rate in force now, when the amount is fixed for the customer: stored on the payment row, and the webhook's
    // surcharge line uses it whatever the list says by then. Booking unreachable: 503, never a guessed rate.
    const rate = await this.deps.surchargeRate.cardSurchargeRate();
    const pay = payableAmounts(invoice, rate);
    if (!pay) throw conflict(PAY_MSG.nothingToPay, undefined, 'nothing_to_pay');
    const total = formatMoney(pay.paid.total);
    const existing = await findInvoicePayment(this.deps.db, invoice.id, total);
    if (existing && existing.status !== 'canceled')
      return { payment: existing, invoiceNumber: invoice.invoiceNumber };
    const cents = Number(pay.paid.total);
    const paymentId = randomUUID();
    // The same parameters on every request for this invoice and amount (Stripe refuses a reused idempotency key with
    // other parameters): no per-request values in them.
    const create = () =>
      this.deps.provider.createIntent({
        amountCents: cents,
        // One intent per invoice and amount: a retried or concurrent request gets the same PaymentIntent.
        idempotencyKey: `invoice-payment-${invoice.id}-${cents}${existing ? `-${existing.id.slice(0, 8)}` : ''}`,
        description: `Tax invoice ${invoice.invoiceNumber}`,
        metadata: {
          invoiceId: invoice.id,
          invoiceNumber: invoice.invoiceNumber,
          originalAmount: formatMoney(pay.invoice.total),
          surchargeAmount: formatMoney(pay.surcharge),
          surchargeRate: rateColumn(rate),
        },
        ...(invoice.job.customerEmail ? { receiptEmail: invoice.job.customerEmail } : {}),
      });
    let intent;
    try {
      // A concurrent request with the same key may be answered "in use" (409) while the first is in flight: once more.
      intent = await create().catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        return create();
      });
    } catch (err) {
      this.deps.logger.error(
        { err: err instanceof Error ? err.message : String(err), invoiceId: invoice.id },
        'invoice payment intent creation failed',
      );
      throw new HttpError(502, PAY_MSG.setupFailed, 'payment_setup_failed');
    }
    const columns = {
      originalAmount: formatMoney(pay.invoice.total),
      surchargeAmount: formatMoney(pay.surcharge),
      surchargeGstAmount: formatMoney(pay.surchargeGst),
      surchargeRate: rateColumn(rate),
      totalAmount: total,
      providerIntentId: intent.id,
      clientSecret: intent.clientSecret,
    };
    if (existing) {
      const renewed = await updatePayment(this.deps.db, existing.id, {
        ...columns,
        status: 'requires_payment_method',
      });
      return { payment: renewed, invoiceNumber: invoice.invoiceNumber };
    }
    try {
      const payment = await insertInvoicePayment(this.deps.db, {
        id: paymentId,
        customerInvoiceId: invoice.id,
        jobId: invoice.jobId,
        currency: 'AUD',
        mode: this.mode,
        ...columns,
      });
      return { payment, invoiceNumber: invoice.invoiceNumber };
    } catch (err) {
      // A concurrent request for the same invoice and amount won: its payment (and intent) is the one.
      if (!isUniqueViolation(err)) throw err;
      const winner = await findInvoicePayment(this.deps.db, invoice.id, total);
      if (!winner) throw err;
      return { payment: winner, invoiceNumber: invoice.invoiceNumber };
    }
  }

  /**
   * payment_intent.succeeded for an invoice's payment, in the provider event's transaction (the payment row is
   * locked). The first success pays the invoice (its surcharge line, status paid, CustomerInvoiceUpdated); any later
   * success of another intent finds it paid and is marked for a full refund.
   */
  async applySucceeded(tx: Tx, payment: Payment, now: Date): Promise<InvoicePaymentOutcome> {
    if (payment.status === 'succeeded')
      return payment.duplicateRefundStatus
        ? { kind: 'invoice-already-paid', payment }
        : { kind: 'invoice-paid', payment, alreadySucceeded: true };
    const invoiceId = payment.customerInvoiceId as string;
    const paid = await this.deps.invoices.payOnline(tx, invoiceId, {
      total: centsOf(payment.totalAmount),
      paidAt: now,
      // The rate stored when the intent was made (the amount the customer was shown), never today's.
      rate: rateOfPayment(payment),
    });
    const base = { status: 'succeeded', succeededAt: now, failureCode: null, failureMessage: null };
    if (paid.kind === 'not-payable') {
      this.deps.logger.warn(
        { invoiceId, paymentId: payment.id, invoiceStatus: paid.status },
        'invoice paid again (or no longer payable): this payment is refunded in full',
      );
      const updated = await updatePayment(tx, payment.id, { ...base, duplicateRefundStatus: 'requested' });
      return { kind: 'invoice-already-paid', payment: updated };
    }
    if (!paid.surchargeMatched)
      this.deps.logger.error(
        { invoiceId, paymentId: payment.id, charged: moneyString(payment.totalAmount) },
        'invoice paid online, but its lines changed after the payment started: no surcharge line added; staff to reconcile',
      );
    const updated = await updatePayment(tx, payment.id, base);
    return { kind: 'invoice-paid', payment: updated, alreadySucceeded: false };
  }

  /**
   * After the event's transaction committed: the receipt email is queued (one per payment) and an unneeded payment
   * is refunded (idempotency key per intent). Called again on a redelivered event, so a step that failed (Redis or
   * Stripe unreachable) is done then. False when something could not be done now (the webhook answers 503 so
   * Stripe delivers the event again).
   */
  async afterSucceeded(paymentId: string): Promise<boolean> {
    const payment = await findPayment(this.deps.db, paymentId);
    if (!payment?.customerInvoiceId || payment.status !== 'succeeded') return true;
    if (payment.duplicateRefundStatus) return this.refundDuplicate(payment);
    const invoice = await this.deps.db.customerInvoice.findUnique({
      where: { id: payment.customerInvoiceId },
      include: { job: true },
    });
    if (!invoice?.job.customerEmail) return true;
    try {
      await this.deps.queueReceipt({
        invoiceId: invoice.id,
        paymentId: payment.id,
        to: invoice.job.customerEmail,
      });
      return true;
    } catch (err) {
      this.deps.logger.error(
        { err: err instanceof Error ? err.message : String(err), paymentId: payment.id },
        'invoice receipt email could not be queued',
      );
      return false;
    }
  }

  private async refundDuplicate(payment: Payment): Promise<boolean> {
    if (payment.duplicateRefundStatus === 'succeeded') return true;
    try {
      const refund = await this.deps.provider.refund({
        paymentIntentId: payment.providerIntentId,
        amountCents: Number(centsOf(payment.totalAmount)),
        idempotencyKey: `invoice-duplicate-refund-${payment.providerIntentId}`,
        metadata: {
          paymentId: payment.id,
          invoiceId: payment.customerInvoiceId ?? '',
          reason: 'invoice already paid',
        },
      });
      await updatePayment(this.deps.db, payment.id, {
        // pending: Stripe settles it; asked again (same key, same refund) if the event is delivered again.
        duplicateRefundStatus: refund.status === 'pending' ? 'requested' : refund.status,
        duplicateRefundId: refund.id,
        duplicateRefundError: refund.failureReason,
      });
      this.deps.logger.warn(
        { paymentId: payment.id, refundId: refund.id, amount: formatAud(centsOf(payment.totalAmount)) },
        'second payment of an invoice refunded in full',
      );
      return refund.status !== 'failed';
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await updatePayment(this.deps.db, payment.id, {
        duplicateRefundStatus: 'failed',
        duplicateRefundError: message.slice(0, 1000),
      }).catch(() => undefined);
      this.deps.logger.error(
        { paymentId: payment.id, err: message },
        'second payment of an invoice could NOT be refunded: staff to refund it in Stripe',
      );
      return false;
    }
  }
}
