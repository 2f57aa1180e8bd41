import { ACCEPTED_PAYMENT_METHODS, PAYMENT_METHODS_NOTE, type CustomerInvoiceStatus } from './constants';
import { formatLongDate, fromDbDate, fromDbDateOrNull, perthDate, type IsoDate } from './dates';
import { effectiveStatus } from './invoice-status';
import { formatAud } from './money';
import type { InvoiceWithJobAndItems } from '../events/snapshots';

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
};

export function invoiceFilename(invoiceNumber: string): string {
  return `${invoiceNumber}.pdf`;
}

/**
 * The pdfmake document of a tax invoice: business name, ABN and contact; customer, vehicle and job; the line items;
 * subtotal, GST and total; invoice and due dates; accepted payment methods. Pure: no I/O, standard PDF fonts only.
 */
export function invoiceDocument(
  invoice: InvoiceWithJobAndItems,
  business: BusinessDetails,
  today: IsoDate,
): object {
  const job = invoice.job;
  const dueDate = fromDbDateOrNull(invoice.dueDate);
  const status = effectiveStatus(invoice.status as CustomerInvoiceStatus, dueDate, today);
  const contact = [business.phone && `Phone ${business.phone}`, business.email, business.website]
    .filter(Boolean)
    .join('  |  ');
  const vehicle = `${job.vehicleYear} ${job.vehicleMake} ${job.vehicleModel}${job.vehicleColor ? ` (${job.vehicleColor})` : ''}`;
  const items = [...invoice.items].sort((a, b) => a.position - b.position);

  const itemRows = items.map((item) => [
    { text: item.description },
    { text: CATEGORY_LABELS[item.category] ?? item.category },
    { text: String(item.quantity), alignment: 'right' },
    { text: formatAud(item.unitPrice), alignment: 'right' },
    { text: formatAud(item.totalPrice), alignment: 'right' },
  ]);

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
            { text: `Invoice date: ${formatLongDate(fromDbDate(invoice.invoiceDate))}`, alignment: 'right' },
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
            { text: `${formatLongDate(fromDbDate(job.scheduledDate))}, ${job.timeSlot}` },
          ],
        ],
      },
      { text: ' ', margin: [0, 6] },
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
              body: [
                ['Subtotal (ex GST)', { text: formatAud(invoice.subtotalAmount), alignment: 'right' }],
                ['GST (10%)', { text: formatAud(invoice.gstAmount), alignment: 'right' }],
                [
                  { text: 'Total (inc GST, AUD)', style: 'total' },
                  { text: formatAud(invoice.totalAmount), alignment: 'right', style: 'total' },
                ],
              ],
            },
            layout: 'noBorders',
          },
        ],
      },
      { text: ' ', margin: [0, 6] },
      status === 'paid'
        ? {
            text: `PAID${invoice.paidAt ? ` on ${formatLongDate(perthDate(invoice.paidAt))}` : ''} - thank you.`,
            bold: true,
          }
        : {
            text: `Please pay ${formatAud(invoice.totalAmount)} by ${dueDate ? formatLongDate(dueDate) : 'receipt of this invoice'}.`,
            bold: true,
          },
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
