import { randomUUID } from 'node:crypto';
import { Decimal } from './money';
import type { InvoiceWithJobAndItems } from '../db/customer-invoices';
import { invoiceDocument, invoiceFilename, invoiceTotalsText } from './invoice-document';
import { invoiceEmailContent, receiptEmailContent } from './invoice-email';

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
    // An invoice made before issue 12: GST added on top.
    amountType: 'exclusive',
    paymentIntentId: null,
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
        gstFree: false,
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
      cancellationEventId: null,
      editVersion: 0,
      quoteLines: null,
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
      'GST added',
      'Subtotal',
      '$1,234.50',
      '$123.45',
      'Total (AUD)',
      '$1,357.95',
      'GST added: GST of $123.45 on $1,234.50, total $1,357.95.',
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

  /** A tax inclusive invoice (generated, or a prepaid booking's). */
  const inclusive = (): InvoiceWithJobAndItems => {
    const base = invoice();
    const item = base.items[0]!;
    return {
      ...base,
      amountType: 'inclusive',
      subtotalAmount: new Decimal('118.00'),
      gstAmount: new Decimal('11.80'),
      totalAmount: new Decimal('129.80'),
      items: [
        {
          ...item,
          description: 'Mobile callout fee',
          unitPrice: new Decimal('89.80'),
          totalPrice: new Decimal('89.80'),
        },
        {
          ...item,
          id: randomUUID(),
          description: 'Puncture repair',
          category: 'labour',
          unitPrice: new Decimal('40.00'),
          totalPrice: new Decimal('40.00'),
          position: 1,
        },
      ],
    };
  };

  it('a tax inclusive invoice says its amounts include GST and shows the GST in the total', () => {
    const doc = invoiceDocument(inclusive(), business, '2026-11-21');
    const text = JSON.stringify(doc);
    for (const s of [
      'Amounts include GST',
      'Total (AUD)',
      '$129.80',
      'Includes GST',
      '$11.80',
      'Amounts include GST: the total of $129.80 includes GST of $11.80.',
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('GST added');
    expect(text).not.toContain('Subtotal');
    expect(text).not.toContain('$118.00');
    expect(text).not.toContain('GST-free');
  });

  it('marks GST-free lines, shows the card surcharge line and the card payment of a prepaid booking', () => {
    const base = inclusive();
    const [callout, repair] = base.items as [
      InvoiceWithJobAndItems['items'][0],
      InvoiceWithJobAndItems['items'][0],
    ];
    const prepaid: InvoiceWithJobAndItems = {
      ...base,
      status: 'paid',
      paidAt: new Date('2026-11-20T01:00:00Z'),
      paymentIntentId: 'pi_test_123',
      items: [
        { ...callout, gstFree: true, description: 'Tip jar' },
        repair,
        {
          ...repair,
          id: randomUUID(),
          description: 'Card surcharge 1.7%',
          category: 'surcharge',
          unitPrice: new Decimal('2.21'),
          totalPrice: new Decimal('2.21'),
          position: 2,
        },
      ],
    };
    const text = JSON.stringify(invoiceDocument(prepaid, business, '2026-11-21'));
    expect(text).toContain('Tip jar (GST-free)');
    expect(text).toContain('Lines marked (GST-free) carry no GST.');
    expect(text).not.toContain('Puncture repair (GST-free)');
    expect(text).toContain('Card surcharge 1.7%');
    expect(text).toContain('"Surcharge"');
    expect(text).toContain('PAID on 20 Nov 2026 - thank you.');
    expect(text).toContain('Paid by card at booking (payment reference pi_test_123).');
    expect(text).not.toContain('Please pay');
  });

  it('totals per amount type', () => {
    expect(invoiceTotalsText(inclusive())).toEqual({
      label: 'Amounts include GST',
      rows: [
        ['Total (AUD)', '$129.80'],
        ['Includes GST', '$11.80'],
      ],
      summary: 'Amounts include GST: the total of $129.80 includes GST of $11.80.',
    });
    expect(invoiceTotalsText(invoice())).toEqual({
      label: 'GST added',
      rows: [
        ['Subtotal', '$1,234.50'],
        ['GST', '$123.45'],
        ['Total (AUD)', '$1,357.95'],
      ],
      summary: 'GST added: GST of $123.45 on $1,234.50, total $1,357.95.',
    });
  });

  it('the invoice email states the amount type and its totals', () => {
    const email = invoiceEmailContent(inclusive(), business);
    expect(email.subject).toBe('Tax invoice INV-000123 from Biz');
    expect(email.text).toContain('Amounts include GST\nTotal (AUD): $129.80\nIncludes GST: $11.80\n');
    expect(email.text).not.toContain('GST-free');
    expect(email.html).toContain('Includes GST: $11.80');
    const exclusive = invoiceEmailContent(invoice(), business).text;
    expect(exclusive).toContain('GST added\nSubtotal: $1,234.50\nGST: $123.45\nTotal (AUD): $1,357.95\n');
    expect(exclusive).toContain('Due date: 21 Dec 2026');
    const base = inclusive();
    const paid = invoiceEmailContent(
      { ...base, status: 'paid', items: base.items.map((i) => ({ ...i, gstFree: true })) },
      business,
    ).text;
    expect(paid).toContain('Lines marked (GST-free) carry no GST.');
    expect(paid).toContain('Paid - thank you.');
  });
});

describe('"Pay now" link and receipt (issue 18)', () => {
  const business = {
    name: 'Biz',
    abn: '12 345 678 901',
    phone: '08 1234 5678',
    email: 'a@b.c',
    address: 'Perth',
    website: '',
  };
  const url = 'https://tyres.example.com.au/pay/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('the email and the PDF of an unpaid invoice carry the link; a paid one does not', () => {
    const email = invoiceEmailContent(invoice(), business, url);
    expect(email.text).toContain(`Pay now by card: ${url}`);
    // The rate can change before the customer pays: the pay page shows the one in force, the email no figure.
    expect(email.text).toContain('(A card surcharge applies to card payments: the page shows it before you pay.)');
    expect(email.text).not.toContain('1.7%');
    expect(email.html).toContain(`href="${url}"`);
    expect(email.html).toContain('>Pay now</a>');
    expect(JSON.stringify(invoiceDocument(invoice(), business, '2026-11-21', url))).toContain(url);
    const paid = { ...invoice(), status: 'paid', paidAt: new Date('2026-11-22T02:00:00Z') };
    expect(invoiceEmailContent(paid, business, url).text).not.toContain('Pay now');
    expect(JSON.stringify(invoiceDocument(paid, business, '2026-11-22', url))).not.toContain(url);
    expect(invoiceEmailContent(invoice(), business).text).not.toContain('Pay now');
  });

  it('the receipt shows the card surcharge separately with its GST', () => {
    const receipt = receiptEmailContent(
      invoice(),
      {
        originalAmount: new Decimal('805.80'),
        surchargeAmount: new Decimal('13.70'),
        surchargeGstAmount: new Decimal('1.25'),
        totalAmount: new Decimal('819.50'),
        providerIntentId: 'pi_123',
        succeededAt: new Date('2026-11-25T17:00:00Z'),
      },
      business,
    );
    expect(receipt.subject).toBe('Payment receipt for invoice INV-000123 from Biz');
    expect(receipt.text).toContain('Hi Jane,');
    // Paid at 1 am Perth time on the 26th.
    expect(receipt.text).toContain('tax invoice INV-000123 on 26 Nov 2026.');
    expect(receipt.text).toContain('Invoice amount: $805.80');
    expect(receipt.text).toContain('Card surcharge (1.7%, includes GST of $1.25): $13.70');
    expect(receipt.text).toContain('Total paid by card: $819.50');
    expect(receipt.text).toContain('Payment reference: pi_123');
  });

  it('the receipt names the rate the payment was charged at (stored with it), not a constant', () => {
    const receipt = receiptEmailContent(
      invoice(),
      {
        originalAmount: new Decimal('805.80'),
        surchargeAmount: new Decimal('12.09'),
        surchargeGstAmount: new Decimal('1.10'),
        surchargeRate: new Decimal('1.50'),
        totalAmount: new Decimal('817.89'),
        providerIntentId: 'pi_456',
        succeededAt: new Date('2026-11-25T17:00:00Z'),
      },
      business,
    );
    expect(receipt.text).toContain('Card surcharge (1.5%, includes GST of $1.10): $12.09');
  });
});
