import { randomUUID } from 'node:crypto';
import { Decimal } from './money';
import type { InvoiceWithJobAndItems } from '../events/snapshots';
import { invoiceDocument, invoiceFilename } from './invoice-document';

const invoice = (): InvoiceWithJobAndItems => {
  const id = randomUUID();
  const jobId = randomUUID();
  const now = new Date('2026-11-21T02:00:00Z');
  return {
    id,
    jobId,
    invoiceNumber: 'INV-000123',
    invoiceDate: new Date('2026-11-21T00:00:00Z'),
    dueDate: new Date('2026-12-21T00:00:00Z'),
    subtotalAmount: new Decimal('1234.50'),
    gstAmount: new Decimal('123.45'),
    totalAmount: new Decimal('1357.95'),
    status: 'draft',
    pdfPath: null,
    sentAt: null,
    paidAt: null,
    revision: 1,
    createdBy: null,
    createdAt: now,
    updatedAt: now,
    items: [
      {
        id: randomUUID(),
        customerInvoiceId: id,
        description: 'Mobile callout fee',
        category: 'callout',
        quantity: 1,
        unitPrice: new Decimal('89.80'),
        totalPrice: new Decimal('89.80'),
        position: 0,
        createdAt: now,
        updatedAt: now,
      },
    ],
    job: {
      jobId,
      jobNumber: 'JOB-77',
      status: 'completed',
      serviceType: 'new-tyres',
      scheduledDate: new Date('2026-11-20T00:00:00Z'),
      timeSlot: '8-10 AM',
      address: '1 Hay St',
      suburb: 'Perth',
      postcode: '6000',
      tyreSize: null,
      tyreQuantity: 1,
      tyreBrand: null,
      notes: null,
      customerValue: new Decimal('1234.50'),
      paymentMethod: 'onsite',
      paymentStatus: 'pending',
      customerName: 'Jane Citizen',
      customerEmail: 'jane@example.com',
      customerPhone: '0412345678',
      vehicleMake: 'Toyota',
      vehicleModel: 'Hilux',
      vehicleYear: 2021,
      vehicleColor: null,
      vehicleRegistration: '1XYZ999',
      assignedTechnicianId: null,
      assignmentAt: null,
      statusAt: null,
      completedAt: null,
      deletedAt: null,
      bookedAt: now,
      updatedAt: now,
    },
  };
};

describe('invoice document', () => {
  const business = {
    name: 'Biz',
    abn: '12 345 678 901',
    phone: '08 1234 5678',
    email: 'a@b.c',
    address: 'Perth',
    website: '',
  };

  it('holds everything a tax invoice must show', () => {
    const text = JSON.stringify(invoiceDocument(invoice(), business, '2026-11-21'));
    for (const s of [
      'TAX INVOICE',
      'INV-000123',
      'ABN 12 345 678 901',
      'Phone 08 1234 5678',
      'Jane Citizen',
      '2021 Toyota Hilux',
      'Registration 1XYZ999',
      'Job JOB-77',
      'Mobile callout fee',
      '$1,234.50',
      '$123.45',
      '$1,357.95',
      'Due date: 21 Dec 2026',
      'Visa, Mastercard, Amex, EFTPOS, PayID, Cash, Zip, Klarna',
    ]) {
      expect(text).toContain(s);
    }
    expect(invoiceFilename('INV-000123')).toBe('INV-000123.pdf');
  });

  it('says paid once paid', () => {
    const paid = { ...invoice(), status: 'paid', paidAt: new Date('2026-11-25T01:00:00Z') };
    expect(JSON.stringify(invoiceDocument(paid, business, '2026-11-26'))).toContain('PAID on 25 Nov 2026');
  });
});
