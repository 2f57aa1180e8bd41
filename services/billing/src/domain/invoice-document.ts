import {
  AMOUNT_TYPE_LABEL,
  dateFromDb,
  formatAud,
  perthDate,
  type AmountType,
} from '@tyres/kernel';
import { ACCEPTED_PAYMENT_METHODS, PAYMENT_METHODS_NOTE, type CustomerInvoiceStatus } from './constants';
import { formatLongDate, type IsoDate } from './dates';
import { effectiveStatus } from './invoice-status';
import { centsOf } from './money';
import type { InvoiceWithJobAndItems } from '../db/customer-invoices';

/** What every invoice prints about the business (configuration, see README). */
export interface BusinessDetails {
  name: string;
  abn: string;
  phone: string;
  email: string;
  address: string;
  website: string;
}

const SERVICE_LABELS: Record<string, string> = {
  'new-tyres': 'New tyres (fitting and balancing)',
  'puncture-repair': 'Puncture repair',
  'battery-service': 'Battery service',
  'emergency-callout': 'Emergency callout',
};

const CATEGORY_LABELS: Record<string, string> = {
  callout: 'Callout',
  tyre: 'Tyre',
  labour: 'Labour',
  battery: 'Battery',
  note: 'Note',
  surcharge: 'Surcharge',
};

/** How a GST-free line is marked on the invoice. */
export const GST_FREE_MARK = '(GST-free)';

type Money = Parameters<typeof centsOf>[0];
const aud = (value: Money) => formatAud(centsOf(value));

/**
 * The totals an invoice prints, per its amount type (issue 12): a tax inclusive invoice shows its total and the GST
 * included in it; a tax exclusive one the line sum, the GST added and the total. One summary sentence says the same in
 * words, so nobody has to guess which kind of invoice it is.
 */
export function invoiceTotalsText(invoice: {
  amountType: string;
  subtotalAmount: Money;
  gstAmount: Money;
  totalAmount: Money;
}): { label: string; rows: [string, string][]; summary: string } {
  const type = invoice.amountType as AmountType;
  const total = aud(invoice.totalAmount);
  const gst = aud(invoice.gstAmount);
  if (type === 'inclusive')
    return {
      label: AMOUNT_TYPE_LABEL.inclusive,
      rows: [
        ['Total (AUD)', total],
        ['Includes GST', gst],
      ],
      summary: `${AMOUNT_TYPE_LABEL.inclusive}: the total of ${total} includes GST of ${gst}.`,
    };
  const subtotal = aud(invoice.subtotalAmount);
  return {
    label: AMOUNT_TYPE_LABEL.exclusive,
    rows: [
      ['Subtotal', subtotal],
      ['GST', gst],
      ['Total (AUD)', total],
    ],
    summary: `${AMOUNT_TYPE_LABEL.exclusive}: GST of ${gst} on ${subtotal}, total ${total}.`,
  };
}

export function invoiceFilename(invoiceNumber: string): string {
  return `${invoiceNumber}.pdf`;
}

/**
 * The pdfmake document of a tax invoice: business name, ABN and contact; customer, vehicle and job; whether its
 * amounts include GST or have it added; the line items (GST-free ones marked, the card surcharge line of a prepaid
 * booking); the totals per amount type; invoice and due dates; accepted payment methods. Pure: no I/O, standard PDF
 * fonts only.
 */
export function invoiceDocument(
  invoice: InvoiceWithJobAndItems,
  business: BusinessDetails,
  today: IsoDate,
  /** The invoice's "Pay now" link (issue 18), when it can be paid online. */
  payUrl?: string,
): object {
  const job = invoice.job;
  const dueDate = invoice.dueDate && dateFromDb(invoice.dueDate);
  const status = effectiveStatus(invoice.status as CustomerInvoiceStatus, dueDate, today);
  const contact = [business.phone && `Phone ${business.phone}`, business.email, business.website]
    .filter(Boolean)
    .join('  |  ');
  const vehicle = `${job.vehicleYear} ${job.vehicleMake} ${job.vehicleModel}${job.vehicleColor ? ` (${job.vehicleColor})` : ''}`;
  const items = [...invoice.items].sort((a, b) => a.position - b.position);

  const totals = invoiceTotalsText(invoice);
  const itemRows = items.map((item) => [
    { text: item.gstFree ? `${item.description} ${GST_FREE_MARK}` : item.description },
    { text: CATEGORY_LABELS[item.category] ?? item.category },
    { text: String(item.quantity), alignment: 'right' },
    { text: aud(item.unitPrice), alignment: 'right' },
    { text: aud(item.totalPrice), alignment: 'right' },
  ]);
  const gstFreeNote = items.some((i) => i.gstFree)
    ? [{ text: `Lines marked ${GST_FREE_MARK} carry no GST.`, margin: [0, 4, 0, 0] }]
    : [];

  return {
    info: {
      title: `Tax invoice ${invoice.invoiceNumber}`,
      author: business.name,
      subject: `Invoice for job ${job.jobNumber}`,
    },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 60],
    defaultStyle: { font: 'Helvetica', fontSize: 10, lineHeight: 1.2 },
    styles: {
      business: { fontSize: 18, bold: true },
      title: { fontSize: 16, bold: true, alignment: 'right' },
      label: { bold: true, fontSize: 9, color: '#555555' },
      tableHeader: { bold: true, fillColor: '#eeeeee' },
      total: { bold: true, fontSize: 12 },
    },
    footer: (currentPage: number, pageCount: number) => ({
      text: `${business.name}  |  ABN ${business.abn}  |  Page ${currentPage} of ${pageCount}`,
      alignment: 'center',
      fontSize: 8,
      color: '#777777',
      margin: [40, 20, 40, 0],
    }),
    content: [
      {
        columns: [
          [
            { text: business.name, style: 'business' },
            { text: `ABN ${business.abn}` },
            business.address ? { text: business.address } : '',
            contact ? { text: contact } : '',
          ],
          [
            { text: 'TAX INVOICE', style: 'title' },
            { text: invoice.invoiceNumber, alignment: 'right', bold: true, fontSize: 12 },
            { text: `Invoice date: ${formatLongDate(dateFromDb(invoice.invoiceDate))}`, alignment: 'right' },
            { text: `Due date: ${dueDate ? formatLongDate(dueDate) : 'On receipt'}`, alignment: 'right' },
          ],
        ],
      },
      { text: ' ', margin: [0, 6] },
      {
        columns: [
          [
            { text: 'BILL TO', style: 'label' },
            { text: job.customerName, bold: true },
            { text: job.customerEmail },
            { text: job.customerPhone },
            { text: `${job.address}, ${job.suburb} ${job.postcode}` },
          ],
          [
            { text: 'VEHICLE', style: 'label' },
            { text: vehicle },
            { text: `Registration ${job.vehicleRegistration}` },
            { text: ' ' },
            { text: 'JOB', style: 'label' },
            { text: `Job ${job.jobNumber}` },
            { text: SERVICE_LABELS[job.serviceType] ?? job.serviceType },
            { text: `${formatLongDate(dateFromDb(job.scheduledDate))}, ${job.timeSlot}` },
          ],
        ],
      },
      { text: ' ', margin: [0, 6] },
      { text: totals.label, bold: true, margin: [0, 0, 0, 4] },
      {
        table: {
          headerRows: 1,
          widths: ['*', 60, 30, 70, 80],
          body: [
            [
              { text: 'Description', style: 'tableHeader' },
              { text: 'Category', style: 'tableHeader' },
              { text: 'Qty', style: 'tableHeader', alignment: 'right' },
              { text: 'Unit price', style: 'tableHeader', alignment: 'right' },
              { text: 'Line total', style: 'tableHeader', alignment: 'right' },
            ],
            ...itemRows,
          ],
        },
        layout: 'lightHorizontalLines',
      },
      {
        margin: [0, 10, 0, 0],
        columns: [
          { width: '*', text: '' },
          {
            width: 220,
            table: {
              widths: ['*', 90],
              body: totals.rows.map(([label, amount]) =>
                label.startsWith('Total')
                  ? [
                      { text: label, style: 'total' },
                      { text: amount, alignment: 'right', style: 'total' },
                    ]
                  : [label, { text: amount, alignment: 'right' }],
              ),
            },
            layout: 'noBorders',
          },
        ],
      },
      { text: totals.summary, margin: [0, 8, 0, 0] },
      ...gstFreeNote,
      { text: ' ', margin: [0, 6] },
      status === 'paid'
        ? {
            text: `PAID${invoice.paidAt ? ` on ${formatLongDate(perthDate(invoice.paidAt))}` : ''} - thank you.`,
            bold: true,
          }
        : {
            text: `Please pay ${aud(invoice.totalAmount)} by ${dueDate ? formatLongDate(dueDate) : 'receipt of this invoice'}.`,
            bold: true,
          },
      invoice.paymentIntentId
        ? { text: `Paid by card at booking (payment reference ${invoice.paymentIntentId}).` }
        : '',
      ...(payUrl && status !== 'paid' && status !== 'cancelled'
        ? [
            { text: 'PAY NOW ONLINE', style: 'label', margin: [0, 8, 0, 0] },
            {
              text: [
                'Pay now by card: ',
                { text: payUrl, link: payUrl, color: '#1d4ed8', decoration: 'underline' },
                ' (a card surcharge applies: the page shows it before you pay).',
              ],
            },
          ]
        : []),
      { text: 'PAYMENT METHODS', style: 'label', margin: [0, 8, 0, 0] },
      { text: `We accept ${ACCEPTED_PAYMENT_METHODS.join(', ')}. ${PAYMENT_METHODS_NOTE}` },
      { text: `Please quote ${invoice.invoiceNumber} with your payment.` },
      {
        text: 'Fitting and puncture repairs carry a 12-month warranty. Thank you for your business.',
        margin: [0, 12, 0, 0],
        italics: true,
        color: '#555555',
      },
    ],
  };
}
