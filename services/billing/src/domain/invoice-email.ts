import { invoiceTotalsText, GST_FREE_MARK, type BusinessDetails } from './invoice-document';
import { dateFromDb, formatAud, perthDate } from '@tyres/kernel';
import { rateLabel, rateOfPayment } from './pay-invoice';
import { centsOf } from './money';
import { formatLongDate } from './dates';
import { ACCEPTED_PAYMENT_METHODS, PAYMENT_METHODS_NOTE } from './constants';
import type { InvoiceWithJobAndItems } from '../db/customer-invoices';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** Subject and bodies of the invoice email (the PDF goes as an attachment). */
export function invoiceEmailContent(
  invoice: InvoiceWithJobAndItems,
  business: BusinessDetails,
  /** The invoice's "Pay now" link (issue 18), when it can be paid online. */
  payUrl?: string,
) {
  const due = invoice.dueDate && dateFromDb(invoice.dueDate);
  const firstName = invoice.job.customerName.trim().split(/\s+/)[0] ?? invoice.job.customerName;
  const subject = `Tax invoice ${invoice.invoiceNumber} from ${business.name}`;
  const totals = invoiceTotalsText(invoice);
  const lines = [
    `Hi ${firstName},`,
    '',
    `Thank you for choosing ${business.name}. Please find attached tax invoice ${invoice.invoiceNumber} for job ${invoice.job.jobNumber} (${invoice.job.vehicleYear} ${invoice.job.vehicleMake} ${invoice.job.vehicleModel}, ${invoice.job.vehicleRegistration}).`,
    '',
    totals.label,
    ...totals.rows.map(([label, amount]) => `${label}: ${amount}`),
    ...(invoice.items.some((i) => i.gstFree) ? [`Lines marked ${GST_FREE_MARK} carry no GST.`] : []),
    invoice.status === 'paid'
      ? 'Paid - thank you.'
      : due
        ? `Due date: ${formatLongDate(due)}`
        : 'Due on receipt',
    ...(payUrl && invoice.status !== 'paid'
      ? [
          '',
          `Pay now by card: ${payUrl}`,
          // The rate in force when the customer pays is on that page (it can change before then): not a figure here.
          '(A card surcharge applies to card payments: the page shows it before you pay.)',
        ]
      : []),
    '',
    `We accept ${ACCEPTED_PAYMENT_METHODS.join(', ')}. ${PAYMENT_METHODS_NOTE} Please quote ${invoice.invoiceNumber} with your payment.`,
    '',
    'Kind regards,',
    business.name,
    [business.phone, business.email].filter(Boolean).join(' | '),
    `ABN ${business.abn}`,
  ];
  return { subject, ...bodies(lines, payUrl) };
}

/** Text and HTML bodies from the lines; the pay link becomes a "Pay now" button in the HTML. */
function bodies(lines: string[], payUrl?: string) {
  const text = lines.join('\n');
  const html = `<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5">${lines
    .map((l) => {
      if (!l) return '<br>';
      if (payUrl && l.endsWith(payUrl))
        return `<p style="margin:8px 0"><a href="${escapeHtml(payUrl)}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:bold">Pay now</a></p><p style="margin:0;font-size:12px;color:#555555">${escapeHtml(payUrl)}</p>`;
      return `<p style="margin:0">${escapeHtml(l)}</p>`;
    })
    .join('')}</div>`;
  return { text, html };
}

/**
 * The receipt of an invoice paid online (issue 18): what was paid, the card surcharge shown separately with its
 * GST, the payment reference. The paid invoice's PDF (with its surcharge line) goes as the attachment.
 */
export function receiptEmailContent(
  invoice: InvoiceWithJobAndItems,
  payment: {
    originalAmount: Money;
    surchargeAmount: Money;
    surchargeGstAmount: Money | null;
    /** The rate it was charged at ("1.70"); null on a payment from before it was recorded (1.70%). */
    surchargeRate?: Money | null;
    totalAmount: Money;
    providerIntentId: string;
    succeededAt: Date | null;
  },
  business: BusinessDetails,
) {
  const firstName = invoice.job.customerName.trim().split(/\s+/)[0] ?? invoice.job.customerName;
  const paidOn = payment.succeededAt ? formatLongDate(perthDate(payment.succeededAt)) : null;
  const surchargeGst = payment.surchargeGstAmount ? centsOf(payment.surchargeGstAmount) : 0n;
  const lines = [
    `Hi ${firstName},`,
    '',
    `Thank you - we have received your card payment for tax invoice ${invoice.invoiceNumber}${paidOn ? ` on ${paidOn}` : ''}.`,
    '',
    `Invoice amount: ${formatAud(centsOf(payment.originalAmount))}`,
    `Card surcharge (${rateLabel(rateOfPayment(payment))}, includes GST of ${formatAud(surchargeGst)}): ${formatAud(centsOf(payment.surchargeAmount))}`,
    `Total paid by card: ${formatAud(centsOf(payment.totalAmount))}`,
    `Payment reference: ${payment.providerIntentId}`,
    '',
    `The paid invoice is attached. Invoice ${invoice.invoiceNumber} is now paid in full.`,
    '',
    'Kind regards,',
    business.name,
    [business.phone, business.email].filter(Boolean).join(' | '),
    `ABN ${business.abn}`,
  ];
  return {
    subject: `Payment receipt for invoice ${invoice.invoiceNumber} from ${business.name}`,
    ...bodies(lines),
  };
}

type Money = Parameters<typeof centsOf>[0];
