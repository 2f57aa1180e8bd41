import { invoiceTotalsText, GST_FREE_MARK, type BusinessDetails } from './invoice-document';
import { dateFromDb } from '@tyres/kernel';
import { formatLongDate } from './dates';
import { ACCEPTED_PAYMENT_METHODS, PAYMENT_METHODS_NOTE } from './constants';
import type { InvoiceWithJobAndItems } from '../db/customer-invoices';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** Subject and bodies of the invoice email (the PDF goes as an attachment). */
export function invoiceEmailContent(invoice: InvoiceWithJobAndItems, business: BusinessDetails) {
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
    '',
    `We accept ${ACCEPTED_PAYMENT_METHODS.join(', ')}. ${PAYMENT_METHODS_NOTE} Please quote ${invoice.invoiceNumber} with your payment.`,
    '',
    'Kind regards,',
    business.name,
    [business.phone, business.email].filter(Boolean).join(' | '),
    `ABN ${business.abn}`,
  ];
  const text = lines.join('\n');
  const html = `<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5">${lines
    .map((l) => (l ? `<p style="margin:0">${escapeHtml(l)}</p>` : '<br>'))
    .join('')}</div>`;
  return { subject, text, html };
}
